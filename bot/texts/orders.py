"""Texts of standing orders (issue 46): ``/mt orders``, ``/play … then:``, the turn DM's one-tap
order, the channel's line for a move an order played, and why an order stopped."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- command metadata (see bot/texts/commands.py for the key scheme)
    "cmd.name.orders": {"en": "orders", "fr": "ordres"},
    "cmd.desc.See, set or cancel your standing order: the next tiles of your train": {
        "en": "See, set or cancel your standing order: the next tiles of your train",
        "fr": "Voir, donner ou annuler ton ordre : les prochains dominos de ton train",
    },
    "cmd.name.then": {"en": "then", "fr": "ensuite"},
    "cmd.desc.Then keep playing these tiles on your train at your next turns, e.g. 7-2 2-9": {
        "en": "Then keep playing these tiles on your train at your next turns, e.g. 7-2 2-9",
        "fr": "Puis continuer ces dominos sur ton train à tes prochains tours, ex. 7-2 2-9",
    },
    "cmd.name.queue": {"en": "queue", "fr": "file"},
    "cmd.desc.The next tiles of your own train, in order, e.g. 5-7 7-2 2-9": {
        "en": "The next tiles of your own train, in order, e.g. 5-7 7-2 2-9",
        "fr": "Les prochains dominos de ton propre train, dans l'ordre, ex. 5-7 7-2 2-9",
    },
    "cmd.name.stop_order": {"en": "stop_order", "fr": "arrêter_ordre"},
    "cmd.desc.Cancel your standing order": {
        "en": "Cancel your standing order",
        "fr": "Annuler ton ordre",
    },
    "cmd.name.on_double": {"en": "on_double", "fr": "sur_double"},
    "cmd.desc.Stop when a double is open anywhere (default: on)": {
        "en": "Stop when a double is open anywhere (default: on)",
        "fr": "S'arrêter quand un double est ouvert (défaut : oui)",
    },
    "cmd.name.on_my_train": {"en": "on_my_train", "fr": "sur_mon_train"},
    "cmd.desc.Stop when someone plays on your train (default: on)": {
        "en": "Stop when someone plays on your train (default: on)",
        "fr": "S'arrêter quand quelqu'un joue sur ton train (défaut : oui)",
    },
    "cmd.name.on_last_tile": {"en": "on_last_tile", "fr": "avant_dernier"},
    "cmd.desc.Stop before leaving you one tile (default: on; off: the order knocks)": {
        "en": "Stop before leaving you one tile (default: on; off: the order knocks)",
        "fr": "S'arrêter avant de te laisser un domino (défaut : oui ; non : l'ordre toque)",
    },
    # ---- the channel: a move an order played (public once made)
    "orders.played": {
        "en": "📋 {name}'s standing order played {tiles}.",
        "fr": "📋 L'ordre de {name} a joué {tiles}.",
    },
    "catchup.bit.order": {"en": "standing order", "fr": "ordre"},
    # ---- the player's next turn DM
    "catchup.why.order": {"en": "your standing order", "fr": "ton ordre"},
    # A turn of two reasons: an order's double, then its only cover played for them (they
    # had no choice); or a draw made for them, then their own moves (".own": no reason).
    "catchup.then": {
        "en": "{before}, then ({why}) {what}",
        "fr": "{before}, puis ({why}) {what}",
    },
    "catchup.then.own": {"en": "{before}, then {what}", "fr": "{before}, puis {what}"},
    "orders.while-away": {
        "en": "📋 While you were away your order played {tiles}.",
        "fr": "📋 Pendant ton absence, ton ordre a joué {tiles}.",
    },
    "orders.stopped.double": {
        "en": "📋 Your order stopped: {name} opened a double {tile}.",
        "fr": "📋 Ton ordre s'est arrêté : {name} a ouvert un double {tile}.",
    },
    "orders.stopped.double-open": {
        "en": "📋 Your order stopped: a double {tile} is open.",
        "fr": "📋 Ton ordre s'est arrêté : un double {tile} est ouvert.",
    },
    "orders.stopped.train": {
        "en": "📋 Your order stopped: {name} played {tile} on your train.",
        "fr": "📋 Ton ordre s'est arrêté : {name} a joué {tile} sur ton train.",
    },
    "orders.stopped.last": {
        "en": "📋 Your order stopped: {tile} would leave you one tile, so that move is yours.",
        "fr": "📋 Ton ordre s'est arrêté : {tile} te laisserait un seul domino, ce coup est "
        "le tien.",
    },
    "orders.stopped.gone": {
        "en": "📋 Your order stopped: {tile} is no longer in your hand.",
        "fr": "📋 Ton ordre s'est arrêté : {tile} n'est plus dans ta main.",
    },
    "orders.stopped.illegal": {
        "en": "📋 Your order stopped: {tile} cannot go on your train now.",
        "fr": "📋 Ton ordre s'est arrêté : {tile} ne peut pas aller sur ton train maintenant.",
    },
    "orders.stopped.round": {
        "en": "📋 Your order ended with the round.",
        "fr": "📋 Ton ordre a pris fin avec la manche.",
    },
    # ---- the turn DM's one-tap order
    "orders.button.then": {
        "en": "📋 {first}, then keep playing {rest}",
        "fr": "📋 {first}, puis continuer {rest}",
    },
    "orders.button.queue": {
        "en": "📋 Next turns: keep playing {tiles}",
        "fr": "📋 Tours suivants : continuer {tiles}",
    },
    # ---- /mt orders and the answers
    "orders.set": {
        "en": "📋 Order set for game #{game}: {tiles} on your train, one at each of your turns. "
        "It stops {stops}. Change or cancel it: `/mt orders`.",
        "fr": "📋 Ordre donné pour la partie n°{game} : {tiles} sur ton train, un à chacun de "
        "tes tours. Il s'arrête {stops}. Le changer ou l'annuler : `/mt ordres`.",
    },
    "orders.show": {
        "en": "📋 Your order in game #{game}: {tiles}. It stops {stops}.",
        "fr": "📋 Ton ordre dans la partie n°{game} : {tiles}. Il s'arrête {stops}.",
    },
    "orders.none": {
        "en": "📋 No standing order in game #{game}. Queue the next tiles of your train: "
        "`/mt orders queue: 5-7 7-2`, or `/play … then: 7-2 2-9`.",
        "fr": "📋 Aucun ordre dans la partie n°{game}. Donne les prochains dominos de ton "
        "train : `/mt ordres file: 5-7 7-2`, ou `/play … ensuite: 7-2 2-9`.",
    },
    "orders.cancelled": {"en": "📋 Order cancelled.", "fr": "📋 Ordre annulé."},
    "orders.cancelled.none": {
        "en": "📋 You had no standing order here.",
        "fr": "📋 Tu n'avais pas d'ordre ici.",
    },
    "orders.stop.double": {"en": "when a double is open", "fr": "quand un double est ouvert"},
    "orders.stop.train": {
        "en": "when someone plays on your train",
        "fr": "quand quelqu'un joue sur ton train",
    },
    "orders.stop.last": {
        "en": "before leaving you one tile",
        "fr": "avant de te laisser un seul domino",
    },
    "orders.stop.knocks": {
        "en": "It plays down to your last tile, and knocks for you under the knock rule.",
        "fr": "Il joue jusqu'à ton dernier domino, et toque pour toi avec la règle du toc.",
    },
    "orders.stop.or": {"en": " or ", "fr": " ou "},
    "orders.stop.nothing": {
        "en": "only when a tile can't be played",
        "fr": "seulement quand un domino ne peut pas être joué",
    },
    # ---- refusals (bot.service.orders.OrderRefused)
    "error.order-tile": {
        "en": "{tile} is not in your hand: an order plays only your own tiles.",
        "fr": "{tile} n'est pas dans ta main : un ordre ne joue que tes propres dominos.",
    },
    "error.order-chain": {
        "en": "{tile} does not follow {after}: an order is the next tiles of your own train, "
        "each laid against the one before.",
        "fr": "{tile} ne suit pas {after} : un ordre, ce sont les prochains dominos de ton "
        "propre train, chacun contre le précédent.",
    },
    "error.order-start": {
        "en": "{tile} does not fit your train's open end ({end}): an order starts there.",
        "fr": "{tile} ne va pas au bout de ton train ({end}) : un ordre commence là.",
    },
    "error.order-long": {
        "en": "That order is too long: an order holds up to {max}, one per turn.",
        "fr": "Cet ordre est trop long : un ordre en compte {max} au plus, un par tour.",
    },
    "error.order-empty": {
        "en": "Name at least one tile, e.g. 7-2 2-9.",
        "fr": "Donne au moins un domino, ex. 7-2 2-9.",
    },
    "error.order-round": {
        "en": "No round is being played: there is nothing to queue.",
        "fr": "Aucune manche n'est en cours : rien à mettre en file.",
    },
    "error.order-bad": {
        "en": "{tile} is not a tile of this set.",
        "fr": "{tile} n'est pas un domino de ce jeu.",
    },
}
