"""The peñas' area of the store (`PenaStore`, schema.penas and its tables, revision 0016) on
every backend: names unique and never look-alikes, slugs made unique, members and roles, the
last leader kept, requests, invitation links and their expiry."""

from __future__ import annotations

import pytest

from tranque.server.store import PenaNameTaken, Store

pytestmark = pytest.mark.anyio


async def _accounts(store: Store, *names: str) -> list[int]:
    return [(await store.create_user(name, "hash", 1.0)).user_id for name in names]


async def test_a_new_pena_has_its_creator_as_its_one_leader(store: Store) -> None:
    (ana,) = await _accounts(store, "ana")
    pena = await store.create_pena("Los del Martes", "los-del-martes", "gallo", "Martes.", "open", ana, 5.0)
    assert (pena.slug, pena.name, pena.crest, pena.access, pena.members) == (
        "los-del-martes",
        "Los del Martes",
        "gallo",
        "open",
        1,
    )
    assert await store.pena_role(pena.id, ana) == "leader"
    assert [(m.user_id, m.name, m.role) for m in await store.pena_members(pena.id)] == [
        (ana, "ana", "leader")
    ]
    assert await store.pena_by_slug("los-del-martes") == pena
    assert await store.pena_by_id(pena.id) == pena
    assert [m.pena.id for m in await store.penas_of(ana)] == [pena.id]


async def test_a_name_taken_or_looking_like_one_is_refused(store: Store) -> None:
    (ana,) = await _accounts(store, "ana")
    await store.create_pena("Peña Mango", "pena-mango", "mango", "", "open", ana, 5.0)
    with pytest.raises(PenaNameTaken):
        await store.create_pena("PEÑA MANGO", "pena-mango", "mango", "", "open", ana, 6.0)
    with pytest.raises(PenaNameTaken):
        await store.create_pena("Peña Mang0", "pena-mang0", "mango", "", "open", ana, 6.0)  # 0 for o
    assert (await store.find_pena("peña mango")) is not None
    similar = await store.find_similar_pena("Peña Mang0")
    assert similar is not None and similar.name == "Peña Mango"
    assert len(await store.list_penas("", 10)) == 1


async def test_slugs_are_made_unique(store: Store) -> None:
    (ana,) = await _accounts(store, "ana")
    first = await store.create_pena("Peña", "pena", "sol", "", "open", ana, 5.0)
    second = await store.create_pena("Pena", "pena", "sol", "", "open", ana, 6.0)  # ñ is no look-alike
    assert (first.slug, second.slug) == ("pena", "pena-2")


async def test_members_join_once_and_roles_change(store: Store) -> None:
    ana, bea, ciro = await _accounts(store, "ana", "bea", "ciro")
    pena = await store.create_pena("Club", "club", "sol", "", "invite", ana, 5.0)
    assert await store.add_pena_member(pena.id, bea, 6.0)
    assert not await store.add_pena_member(pena.id, bea, 7.0)
    assert await store.pena_role(pena.id, bea) == "member"
    assert await store.pena_role(pena.id, ciro) is None
    assert await store.set_pena_role(pena.id, bea, "leader")
    assert not await store.set_pena_role(pena.id, ciro, "leader")
    members = await store.pena_members(pena.id)
    assert [(m.name, m.role, m.joined_at) for m in members] == [
        ("ana", "leader", 5.0),
        ("bea", "leader", 6.0),
    ]
    assert (await store.pena_by_id(pena.id)) is not None
    assert (await store.pena_by_slug("club")).members == 2  # type: ignore[union-attr]


async def test_a_leader_is_never_removed_and_a_member_is(store: Store) -> None:
    ana, bea = await _accounts(store, "ana", "bea")
    pena = await store.create_pena("Club", "club", "sol", "", "open", ana, 5.0)
    await store.add_pena_member(pena.id, bea, 6.0)
    assert not await store.remove_pena_member(pena.id, ana)
    assert await store.remove_pena_member(pena.id, bea)
    assert not await store.remove_pena_member(pena.id, bea)
    assert await store.pena_role(pena.id, bea) is None


async def test_the_last_leader_stays_while_others_remain_and_the_last_member_dissolves(store: Store) -> None:
    ana, bea = await _accounts(store, "ana", "bea")
    pena = await store.create_pena("Club", "club", "sol", "", "open", ana, 5.0)
    await store.add_pena_member(pena.id, bea, 6.0)
    assert await store.leave_pena(pena.id, ana) == "last_leader"
    assert await store.pena_role(pena.id, ana) == "leader"
    await store.set_pena_role(pena.id, bea, "leader")
    assert await store.leave_pena(pena.id, ana) == "left"
    assert await store.leave_pena(pena.id, ana) == "not_member"
    await store.request_pena(pena.id, ana, 7.0)
    assert await store.leave_pena(pena.id, bea) == "dissolved"
    assert await store.pena_by_id(pena.id) is None
    assert await store.penas_of(bea) == []
    assert await store.leave_pena(pena.id, bea) == "not_member"
    # Its name is free again.
    assert (await store.create_pena("Club", "club", "sol", "", "open", bea, 8.0)).slug == "club"


async def test_requests_wait_for_a_leader(store: Store) -> None:
    ana, bea, ciro = await _accounts(store, "ana", "bea", "ciro")
    pena = await store.create_pena("Club", "club", "sol", "", "open", ana, 5.0)
    assert await store.request_pena(pena.id, bea, 6.0)
    assert not await store.request_pena(pena.id, bea, 7.0)
    assert await store.request_pena(pena.id, ciro, 8.0)
    assert [(r.name, r.at) for r in await store.pena_requests(pena.id)] == [("bea", 6.0), ("ciro", 8.0)]
    assert await store.approve_pena_request(pena.id, bea, 9.0)
    assert not await store.approve_pena_request(pena.id, bea, 9.0)
    assert await store.pena_role(pena.id, bea) == "member"
    assert await store.drop_pena_request(pena.id, ciro)
    assert not await store.drop_pena_request(pena.id, ciro)
    assert await store.pena_requests(pena.id) == []
    assert await store.pena_role(pena.id, ciro) is None


async def test_invitations_lead_to_their_pena_until_they_expire(store: Store) -> None:
    (ana,) = await _accounts(store, "ana")
    pena = await store.create_pena("Club", "club", "sol", "", "invite", ana, 5.0)
    await store.create_pena_invitation(pena.id, "h" * 64, ana, 5.0, 100.0)
    found = await store.pena_by_invitation("h" * 64, 50.0)
    assert found is not None and found.id == pena.id
    assert await store.pena_by_invitation("h" * 64, 100.0) is None
    assert await store.pena_by_invitation("x" * 64, 50.0) is None
    # A new link forgets the expired ones; the live ones stay.
    await store.create_pena_invitation(pena.id, "k" * 64, ana, 90.0, 300.0)
    await store.create_pena_invitation(pena.id, "n" * 64, ana, 150.0, 400.0)
    assert await store.pena_by_invitation("k" * 64, 160.0) is not None
    assert await store.pena_by_invitation("h" * 64, 99.0) is None  # expired at 100, forgotten at 150


async def test_lists_find_by_name_biggest_first(store: Store) -> None:
    ana, bea = await _accounts(store, "ana", "bea")
    small = await store.create_pena("Club Sol", "club-sol", "sol", "", "open", ana, 5.0)
    big = await store.create_pena("Club Mar", "club-mar", "mar", "", "open", ana, 5.0)
    other = await store.create_pena("Tertulia", "tertulia", "cafe", "", "open", ana, 5.0)
    await store.add_pena_member(big.id, bea, 6.0)
    assert [p.id for p in await store.list_penas("", 10)] == [big.id, small.id, other.id]
    assert [p.id for p in await store.list_penas("CLUB", 10)] == [big.id, small.id]
    assert [p.id for p in await store.list_penas("", 1)] == [big.id]
    assert [p.id for p in await store.list_penas("%", 10)] == []
    updated = await store.update_pena(small.id, "loro", "Nueva.", "invite")
    assert updated is not None and (updated.crest, updated.description, updated.access) == (
        "loro",
        "Nueva.",
        "invite",
    )
    assert [m.pena.name for m in await store.penas_of(ana)] == ["Club Mar", "Club Sol", "Tertulia"]
