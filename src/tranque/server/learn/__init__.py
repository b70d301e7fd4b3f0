"""Aprender: the lessons (`lessons`), what they are made of (`steps`) and their checker."""
