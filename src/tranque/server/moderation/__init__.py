"""Moderation: roles, players' reports, the moderators' queue and their sanctions.

`standing` says what holds against an account (a mute, a suspension, a ban) from its
sanctions; `reports` holds a report's rules (reasons, note); `enforce` carries a sanction out
and undoes it (sessions ended, sockets closed on every process, seats covered by the table's
bots, standings withheld from the rankings). The store keeps it all (store/moderation.py);
http/reports.py and http/moderation.py are the API.
"""
