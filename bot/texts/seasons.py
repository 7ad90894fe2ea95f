"""Seasons and the league (issue 48): ``/mt season`` (and its league), ``/mt-admin season`` and
``league``, ``/mt new rated:``, the season's end post and picture, and the commands' French
names."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "season.title": {"en": "Season {name}", "fr": "Saison {name}"},
    "season.dates": {"en": "{start} → {end}", "fr": "{start} → {end}"},
    "season.running": {
        "en": "Running since {start}; ends {end}.",
        "fr": "En cours depuis {start} ; se termine {end}.",
    },
    "season.coming": {
        "en": "Starts {start}; ends {end}.",
        "fr": "Commence {start} ; se termine {end}.",
    },
    "season.ended": {"en": "Ended {end}.", "fr": "Terminée {end}."},
    "season.rules": {
        "en": "Rated games play the **{preset}** rules.",
        "fr": "Les parties classées se jouent avec les règles **{preset}**.",
    },
    "season.line": {
        "en": "{place}. {mention} — {rating} ({change}, {games} {games:rated match|rated matches})",
        "fr": "{place}. {mention} — {rating} ({change}, {games} {games:classée|classées})",
    },
    "season.empty": {
        "en": "No rated match in this season yet.",
        "fr": "Aucune partie classée dans cette saison pour l'instant.",
    },
    "season.none": {
        "en": "This server has no season. A server admin opens one with `/mt-admin season`.",
        "fr": "Ce serveur n'a pas de saison. Un admin du serveur en ouvre une avec "
        "`/mt-admin season`.",
    },
    "season.over": {"en": "Season {name} is over!", "fr": "La saison {name} est finie !"},
    "season.carry": {
        "en": "Ratings carry over into the next season unchanged.",
        "fr": "Les cotes passent telles quelles à la saison suivante.",
    },
    "season.dm": {
        "en": "🏆 Season **{name}** is over ({channel}).",
        "fr": "🏆 La saison **{name}** est finie ({channel}).",
    },
    "season.dm.up": {
        "en": "You move up from division {before} to division {after}.",
        "fr": "Tu montes de la division {before} à la division {after}.",
    },
    "season.dm.down": {
        "en": "You move down from division {before} to division {after}.",
        "fr": "Tu descends de la division {before} à la division {after}.",
    },
    "season.dm.stay": {
        "en": "You stay in division {division}.",
        "fr": "Tu restes en division {division}.",
    },
    "season.dm.rating": {
        "en": "Your final rating: {rating}.",
        "fr": "Ta cote finale : {rating}.",
    },
    "season.dm.unrated": {
        "en": "You have no rating yet.",
        "fr": "Tu n'as pas encore de cote.",
    },
    "season.rated": {
        "en": "Rated: it counts for season {name} (its rules).",
        "fr": "Classée : elle compte pour la saison {name} (ses règles).",
    },
    "season.casual": {
        "en": "Casual: not rated.",
        "fr": "Amicale : non classée.",
    },
    "season.opened": {
        "en": "Season **{name}** is open: {dates}. Rated games play the **{preset}** rules. "
        "League games: {hours} h a turn; after {vacation} {vacation:missed turn|missed turns} "
        "in a row the computer keeps the seat. Players sign up with `/mt season league:join`.",
        "fr": "La saison **{name}** est ouverte : {dates}. Les parties classées se jouent avec "
        "les règles **{preset}**. Parties de la ligue : {hours} h par tour ; après {vacation} "
        "{vacation:tour manqué|tours manqués} d'affilée, l'ordinateur garde la place. "
        "Inscription : `/mt season league:join`.",
    },
    "season.ended-now": {
        "en": "Season {name} is over; its end is posted.",
        "fr": "La saison {name} est finie ; sa fin est annoncée.",
    },
    "season.bad-date": {
        "en": "{value} is not a day: write it YYYY-MM-DD (2026-12-31).",
        "fr": "{value} n'est pas une date : écris-la AAAA-MM-JJ (2026-12-31).",
    },
    "season.in-thread": {
        "en": "Open the season in a channel, not a thread: its league's games open in threads "
        "of that channel.",
        "fr": "Ouvre la saison dans un salon, pas dans un fil : les parties de sa ligue "
        "s'ouvrent dans des fils de ce salon.",
    },
    "season.need": {
        "en": "Give these options too: {option}.",
        "fr": "Donne aussi ces options : {option}.",
    },
    # Refusals (the service's codes)
    "error.season-name": {
        "en": "A season's name is 1 to 60 characters.",
        "fr": "Le nom d'une saison fait de 1 à 60 caractères.",
    },
    "error.season-preset": {
        "en": "There is no preset {preset}.",
        "fr": "Il n'y a pas de préréglage {preset}.",
    },
    "error.season-dates": {
        "en": "A season ends after it starts, and after today.",
        "fr": "Une saison se termine après son début, et après aujourd'hui.",
    },
    "error.season-vacation": {
        "en": "The vacation allowance is 0 to 10 missed turns.",
        "fr": "Les vacances vont de 0 à 10 tours manqués.",
    },
    "error.season-open": {
        "en": "Season {name} is still open: end it first (`/mt-admin season end_now:True`).",
        "fr": "La saison {name} est encore ouverte : termine-la d'abord "
        "(`/mt-admin season end_now:True`).",
    },
    "error.season-rules": {
        "en": "Rated games of season {name} play its rules: leave the rule options out, or "
        "choose `rated:False` for a casual game.",
        "fr": "Les parties classées de la saison {name} suivent ses règles : laisse les options "
        "de règles, ou choisis `rated:False` pour une partie amicale.",
    },
    "error.league-no-season": {
        "en": "This server has no open season, so no league.",
        "fr": "Ce serveur n'a pas de saison ouverte, donc pas de ligue.",
    },
    "error.league-closed": {
        "en": "The league games of season {name} have begun: sign up for the next season's.",
        "fr": "Les parties de la ligue de la saison {name} ont commencé : inscris-toi à celle "
        "de la saison suivante.",
    },
    "error.league-in": {
        "en": "You are already in the league of season {name}.",
        "fr": "Tu es déjà inscrit à la ligue de la saison {name}.",
    },
    "error.league-out": {
        "en": "You are not in the league of season {name}.",
        "fr": "Tu n'es pas inscrit à la ligue de la saison {name}.",
    },
    "error.league-playing": {
        "en": "The league games of season {name} have begun: the tables stay as they are.",
        "fr": "Les parties de la ligue de la saison {name} ont commencé : les tables restent "
        "telles quelles.",
    },
    "error.league-unformed": {
        "en": "The tables of season {name} are not formed yet (`action:form`).",
        "fr": "Les tables de la saison {name} ne sont pas encore formées (`action:form`).",
    },
    "error.league-not-player": {
        "en": "That player has not signed up for the league.",
        "fr": "Ce joueur n'est pas inscrit à la ligue.",
    },
    "error.league-no-table": {
        "en": "There is no table {table}: the tables are 1 to {tables}.",
        "fr": "Il n'y a pas de table {table} : les tables vont de 1 à {tables}.",
    },
    "error.league-table-begun": {
        "en": "Table {table}'s game has begun (game #{game}): its players are that game's "
        "seats now, so nobody joins or leaves that table. In its thread, `/mt kick` hands a "
        "player's seat to the computer, and `/mt end` ends the game (the table then moves "
        "nobody up or down).",
        "fr": "La partie de la table {table} a commencé (partie n°{game}) : ses joueurs sont "
        "désormais les places de cette partie, personne ne rejoint ni ne quitte cette table. "
        "Dans son fil, `/mt kick` donne la place d'un joueur à l'ordinateur, et `/mt end` "
        "termine la partie (la table ne fait alors monter ni descendre personne).",
    },
    "error.league-table-opened": {
        "en": "Table {table}'s game is already open: nothing else was opened.",
        "fr": "La partie de la table {table} est déjà ouverte : rien d'autre n'a été ouvert.",
    },
    "error.league-full": {
        "en": "Table {table} is full (5 players).",
        "fr": "La table {table} est pleine (5 joueurs).",
    },
    # The league
    "league.title": {"en": "League of season {name}", "fr": "Ligue de la saison {name}"},
    "league.signed": {
        "en": "{n} signed up: {players}. The tables are formed at the season's start.",
        "fr": "{n} inscrits : {players}. Les tables sont formées au début de la saison.",
    },
    "league.table": {
        "en": "Table {table} (division {division}): {players}",
        "fr": "Table {table} (division {division}) : {players}",
    },
    "league.game": {"en": "— game #{game}", "fr": "— partie n°{game}"},
    "league.card": {
        "en": "League · season {name} · table {table} (division {division})",
        "fr": "Ligue · saison {name} · table {table} (division {division})",
    },
    "league.joined": {
        "en": "You are in the league of season {name}: your table's game opens {start}, in "
        "its own thread.",
        "fr": "Tu es inscrit à la ligue de la saison {name} : la partie de ta table s'ouvre "
        "{start}, dans son propre fil.",
    },
    "league.left": {
        "en": "You left the league of season {name}.",
        "fr": "Tu as quitté la ligue de la saison {name}.",
    },
    "league.started": {
        "en": "{n} {n:table game|table games} opened.",
        "fr": "{n} {n:partie de table ouverte|parties de table ouvertes}.",
    },
    "league.up": {"en": "⬆️ Up: {players}", "fr": "⬆️ Montent : {players}"},
    "league.down": {"en": "⬇️ Down: {players}", "fr": "⬇️ Descendent : {players}"},
    "league.to": {
        "en": "{mention} to division {division}",
        "fr": "{mention} en division {division}",
    },
    # The picture
    "pic.season.title": {
        "en": "Season {name}: the top players",
        "fr": "Saison {name} : les meilleurs",
    },
    "pic.season.legend": {
        "en": "Rating at the season's end; its change and the rated matches played",
        "fr": "Cote à la fin de la saison ; sa variation et les parties classées jouées",
    },
    "pic.season.empty": {"en": "No rated match this season", "fr": "Aucune partie classée"},
    "pic.season.detail": {
        "en": "{change} · {games} {games:match|matches}",
        "fr": "{change} · {games} {games:partie|parties}",
    },
    "alt.season": {
        "en": "The top players of season {name}: {players}.",
        "fr": "Les meilleurs joueurs de la saison {name} : {players}.",
    },
    # The commands (see bot/texts/commands.py)
    "cmd.name.season": {"en": "season", "fr": "saison"},
    "cmd.name.league": {"en": "league", "fr": "ligue"},
    "cmd.name.name": {"en": "name", "fr": "nom"},
    "cmd.name.rated": {"en": "rated", "fr": "classée"},
    "cmd.name.vacation": {"en": "vacation", "fr": "vacances"},
    "cmd.name.end_now": {"en": "end_now", "fr": "terminer_maintenant"},
    "cmd.name.action": {"en": "action", "fr": "action"},
    "cmd.desc.The season: standings, or its league (join, leave, tables)": {
        "en": "The season: standings, or its league (join, leave, tables)",
        "fr": "La saison : classement, ou sa ligue (rejoindre, quitter, tables)",
    },
    "cmd.desc.The season's league: join it, leave it, or see its tables": {
        "en": "The season's league: join it, leave it, or see its tables",
        "fr": "La ligue de la saison : la rejoindre, la quitter, voir ses tables",
    },
    "cmd.desc.Open a season, or end it now (Manage Server)": {
        "en": "Open a season, or end it now (Manage Server)",
        "fr": "Ouvrir une saison, ou la terminer maintenant (Gérer le serveur)",
    },
    "cmd.desc.The season's name": {
        "en": "The season's name",
        "fr": "Le nom de la saison",
    },
    "cmd.desc.First day, YYYY-MM-DD (default: now)": {
        "en": "First day, YYYY-MM-DD (default: now)",
        "fr": "Premier jour, AAAA-MM-JJ (par défaut : maintenant)",
    },
    "cmd.desc.Its last day, YYYY-MM-DD": {
        "en": "Its last day, YYYY-MM-DD",
        "fr": "Son dernier jour, AAAA-MM-JJ",
    },
    "cmd.desc.The preset rated games play": {
        "en": "The preset rated games play",
        "fr": "Le préréglage des parties classées",
    },
    "cmd.desc.League games: hours per turn (24)": {
        "en": "League games: hours per turn (24)",
        "fr": "Parties de la ligue : heures par tour (24)",
    },
    "cmd.desc.League games: missed turns the computer plays before it keeps the seat (3)": {
        "en": "League games: missed turns the computer plays before it keeps the seat (3)",
        "fr": "Ligue : tours manqués joués par l'ordinateur avant qu'il garde la place (3)",
    },
    "cmd.desc.End the open season now": {
        "en": "End the open season now",
        "fr": "Terminer maintenant la saison ouverte",
    },
    "cmd.desc.The league's tables: show, form, move, start": {
        "en": "The league's tables: show, form, move, start",
        "fr": "Les tables de la ligue : voir, former, déplacer, lancer",
    },
    "cmd.desc.What to do": {
        "en": "What to do",
        "fr": "Que faire",
    },
    "cmd.desc.move: the player": {
        "en": "move: the player",
        "fr": "déplacer : le joueur",
    },
    "cmd.desc.move: to table": {
        "en": "move: to table",
        "fr": "déplacer : vers la table",
    },
    "cmd.desc.Rated (the season's rules) or casual (default: rated unless you set rules)": {
        "en": "Rated (the season's rules) or casual (default: rated unless you set rules)",
        "fr": "Classée (règles de la saison) ou amicale (par défaut : classée sauf règles à toi)",
    },
    "cmd.desc.Rated games: the knock rule": {
        "en": "Rated games: the knock rule",
        "fr": "Parties classées : la règle du toc",
    },
    "cmd.desc.Rated games: hands shown": {
        "en": "Rated games: hands shown",
        "fr": "Parties classées : mains visibles",
    },
    "cmd.desc.Rated games: the fast start": {
        "en": "Rated games: the fast start",
        "fr": "Parties classées : le départ rapide",
    },
    "cmd.choice.join": {"en": "join", "fr": "rejoindre"},
    "cmd.choice.leave": {"en": "leave", "fr": "quitter"},
    "cmd.choice.tables": {"en": "tables", "fr": "tables"},
    "cmd.choice.show": {"en": "show", "fr": "voir"},
    "cmd.choice.form": {"en": "form", "fr": "former"},
    "cmd.choice.move": {"en": "move", "fr": "déplacer"},
    "cmd.choice.start": {"en": "start", "fr": "lancer"},
}
