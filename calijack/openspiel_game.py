"""California Jack as an OpenSpiel game: ``pyspiel.load_game("python_california_jack")``.

Importing this module registers the game with OpenSpiel (``pip install open_spiel==2.0.2``),
as OpenSpiel's own Python games do. The engine and the book never import it: OpenSpiel stays
optional, and without it the import fails with one sentence saying how to install it.

One deal between two players, every rule by the engine (:mod:`calijack.state`):

* **Chance** first picks the dealer (two outcomes), then, when trumps are cut
  (``trump_from="cut"``), the trump suit (four), then deals the 52 cards **one at a time**:
  six to each hand in turn, starting with the dealer's opponent, then the stock from its top
  down. Each of these chance nodes has at most 52 outcomes (the cards not dealt yet).
* A player's **action** is the card it plays, by the engine's card index (0–51:
  ``Card.from_index``); ``action_to_string`` gives its code (``"JH"``).
* **Parameters** are the rule options of :data:`calijack.rules.OPTIONS` under their own names
  (``void_duty="any"``, ``stock="closed"``, ``shasta_point=True`` …), validated by
  :class:`~calijack.rules.Rules` with its own messages, and ``difference``. ``players=3``
  cannot be modelled here (the game is registered for two players) and is refused in words;
  ``target`` is accepted and changes nothing, since one deal is one game.
* **Returns** are the match points each player earned in the deal (High, Low, Jack, Game, and
  the nine with ``shasta_point``); with ``difference=True`` (the default) each player gets its
  points minus its opponent's, so the game is zero-sum.
* **Information-state and observation strings** are written from the player's
  :class:`~calijack.view.View`, the only window the engine's own players have: two states
  that differ only in cards the player has not seen give the same string. The information
  state recalls every trick and draw the player saw; the observation is the table as it is
  now (hand, cards known in the other hand, exposed card, trick in progress, captured cards).
  The observation also has a tensor (:class:`Observer`).
* ``resample_from_infostate(player, sampler)`` deals the hidden cards again with
  :func:`calijack.players.worlds.sample_state`, the same guesses the engine's search makes,
  seeded by one number drawn from ``sampler``: OpenSpiel's Python ISMCTS can play the game,
  and :func:`ismcts_bot` makes such a bot whose every random choice is seeded.
"""

from __future__ import annotations

import random

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # OpenSpiel is optional: say how to get it, in one sentence
    raise ImportError(f"calijack.openspiel_game needs OpenSpiel, which is not installed ({error}); "
                      "install it with 'pip install open_spiel==2.0.2'") from None

from . import core
from .cards import DECK, Suit
from .players.worlds import sample_state
from .rules import OPTIONS, RuleError, Rules
from .state import Deal, State

__all__ = ["GAME_NAME", "CaliforniaJackGame", "CaliforniaJackState", "Observer", "ismcts_bot", "UCT_C"]

GAME_NAME = "python_california_jack"
PLAYERS = 2
PARAMETERS = {**{name: option.standard for name, option in OPTIONS.items()}, "difference": True}
"""The game's parameters and their defaults: every rule option, and ``difference``."""
UCT_C = 5.0
"""The exploration constant :func:`ismcts_bot` uses by default (OpenSpiel's own ISMCTS tests use 5)."""


def _game_type(zero_sum: bool) -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python California Jack",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=PLAYERS,
        min_num_players=PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


class CaliforniaJackGame(pyspiel.Game):
    """One two-player deal of California Jack under the rule options given as parameters."""

    def __init__(self, params=None):
        params = dict(params or {})
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise ValueError(f"{GAME_NAME} has no parameter {', '.join(map(repr, unknown))} "
                             f"(its parameters: {', '.join(PARAMETERS)})")
        merged = {**PARAMETERS, **params}
        difference = merged.pop("difference")
        if not isinstance(difference, bool):
            raise ValueError(f"{GAME_NAME}: difference must be true or false, not {difference!r}")
        if merged["players"] != PLAYERS:
            raise ValueError(f"{GAME_NAME} models the two-player game only: players={merged['players']!r} "
                             "(three-handed Shasta Sam) cannot be played here")
        try:
            rules = Rules.from_dict(merged)
        except RuleError as error:
            raise ValueError(f"{GAME_NAME}: {error}") from None
        self.rules, self.difference = rules, difference
        points = len(rules.point_names)
        info = pyspiel.GameInfo(
            num_distinct_actions=52, max_chance_outcomes=52, num_players=PLAYERS,
            min_utility=float(-points if difference else 0), max_utility=float(points),
            utility_sum=0.0 if difference else None,
            max_game_length=52)
        super().__init__(_game_type(difference), info, {**merged, "difference": difference})

    def new_initial_state(self) -> "CaliforniaJackState":
        """The state before the dealer is chosen."""
        return CaliforniaJackState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        """The observer OpenSpiel asks for strings and tensors."""
        return Observer(iig_obs_type, params)

    def state_of(self, engine: State) -> "CaliforniaJackState":
        """The OpenSpiel state of an engine :class:`~calijack.state.State` (its deal, then its plays).

        The engine state's rules must be this game's (``ValueError`` otherwise).
        """
        if engine.rules != self.rules:
            raise ValueError(f"the state's rules ({engine.rules.to_dict() or 'standard'}) are not "
                             f"this game's ({self.rules.to_dict() or 'standard'})")
        state = self.new_initial_state()
        for action in deal_actions(engine.deal):
            state.apply_action(action)
        for card in engine.plays:
            state.apply_action(card.index)
        return state


def _dealing_order(dealer: int) -> tuple[int, ...]:
    """The seats the cards go round to, one at a time: from the seat after the dealer
    (:func:`calijack.core.first_leader`), in playing order."""
    return core.play_order(core.first_leader(dealer, PLAYERS), PLAYERS)


def deal_actions(deal: Deal) -> list[int]:
    """The chance actions that deal ``deal``: the dealer, the cut suit (if cut), then the 52 cards."""
    actions = [deal.dealer]
    if deal.rules.trump_cut:
        actions.append(int(deal.trump))
    order = _dealing_order(deal.dealer)
    for k in range(6 * PLAYERS):
        actions.append(deal.hands[order[k % PLAYERS]][k // PLAYERS].index)
    actions.extend(card.index for card in deal.stock)
    return actions


class _Position:
    """Everything a state holds, immutable: a clone shares it (OpenSpiel deep-copies each attribute)."""

    __slots__ = ("rules", "difference", "dealer", "cut", "dealt", "engine", "player", "texts")

    def __init__(self, rules: Rules, difference: bool, dealer=None, cut=None, dealt=(), engine=None):
        self.rules, self.difference, self.dealer, self.cut = rules, difference, dealer, cut
        self.dealt: tuple[int, ...] = dealt     # card indices in the order dealt
        self.engine: State | None = engine      # the deal being played, once all 52 cards are dealt
        # OpenSpiel asks for the player to move many times per position (searches all the more).
        self.player = (pyspiel.PlayerId.CHANCE if engine is None else
                       pyspiel.PlayerId.TERMINAL if engine.finished else engine.to_play)
        self.texts: dict = {}                   # strings already written for this position

    def __deepcopy__(self, memo) -> "_Position":
        return self

    def __getstate__(self):
        return (self.rules, self.difference, self.dealer, self.cut, self.dealt, self.engine)

    def __setstate__(self, fields) -> None:
        self.__init__(*fields)

    def seat_of(self, k: int) -> int | None:
        """Who receives the k-th card dealt (None: the stock)."""
        return _dealing_order(self.dealer)[k % PLAYERS] if k < 6 * PLAYERS else None



def _deal(rules: Rules, dealer: int, cut: int | None, dealt: tuple[int, ...]) -> Deal:
    """The engine's deal of 52 cards dealt in this game's order (:func:`deal_actions`)."""
    hands = [[], []]
    order = _dealing_order(dealer)
    for k, card in enumerate(dealt[:6 * PLAYERS]):
        hands[order[k % PLAYERS]].append(DECK[card])
    stock = [DECK[c] for c in dealt[6 * PLAYERS:]]
    return Deal.from_cards(hands, stock, dealer, rules, Suit(cut) if rules.trump_cut else None)


class CaliforniaJackState(pyspiel.State):
    """A deal being dealt (chance), then played (the engine's :class:`~calijack.state.State`)."""

    def __init__(self, game: CaliforniaJackGame):
        super().__init__(game)
        self.pos = _Position(game.rules, game.difference)

    @property
    def engine(self) -> State | None:
        """The engine's state of the deal, once it is dealt (else ``None``)."""
        return self.pos.engine

    # -- OpenSpiel's API ---------------------------------------------------------------------
    def current_player(self) -> int:
        """The player to play, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        return self.pos.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(core.bit_list(self.pos.engine.legal_mask()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The dealer, the cut, or the next card dealt: each outcome equally likely."""
        pos = self.pos
        if pos.dealer is None:
            return [(0, 0.5), (1, 0.5)]
        if pos.rules.trump_cut and pos.cut is None:
            return [(suit, 0.25) for suit in range(4)]
        left = sorted(set(range(52)) - set(pos.dealt))
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        pos = self.pos
        if pos.engine is not None:  # the engine refuses an illegal card (IllegalPlay)
            self.pos = _Position(pos.rules, pos.difference, pos.dealer, pos.cut, pos.dealt,
                                 pos.engine.play(DECK[action]))
        elif pos.dealer is None:
            self.pos = _Position(pos.rules, pos.difference, _checked(action, PLAYERS, "dealer"))
        elif pos.rules.trump_cut and pos.cut is None:
            self.pos = _Position(pos.rules, pos.difference, pos.dealer, _checked(action, 4, "cut suit"))
        else:
            if _checked(action, 52, "card") in pos.dealt:
                raise ValueError(f"{DECK[action].code} is already dealt")
            dealt = pos.dealt + (action,)
            self.pos = _Position(pos.rules, pos.difference, pos.dealer, pos.cut, dealt,
                                 _deal(pos.rules, pos.dealer, pos.cut, dealt).start() if len(dealt) == 52 else None)

    def _action_to_string(self, player: int, action: int) -> str:
        if player != pyspiel.PlayerId.CHANCE:
            return DECK[action].code
        pos = self.pos
        if pos.dealer is None:
            return f"Dealer: player {action}"
        if pos.rules.trump_cut and pos.cut is None:
            return f"Cut: {Suit(action).plural} are trumps"
        return f"Deal {DECK[action].code}"

    def is_terminal(self) -> bool:
        """True once all 26 tricks are played."""
        return self.pos.engine is not None and self.pos.engine.finished

    def returns(self) -> list[float]:
        """Each player's match points this deal (minus the opponent's with ``difference``); 0 before the end."""
        if not self.is_terminal():
            return [0.0, 0.0]
        points = self.pos.engine.result().points
        if self.pos.difference:
            return [float(points[0] - points[1]), float(points[1] - points[0])]
        return [float(points[0]), float(points[1])]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "CaliforniaJackState":
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt again at random.

        ``probability_sampler()`` (a number in [0, 1), such as a seeded
        ``pyspiel.UniformProbabilitySampler``) is called once and seeds the guess, which is
        :func:`calijack.players.worlds.sample_state`'s while the deal is played.
        """
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        pos = self.pos
        if pos.engine is not None:
            return self.get_game().state_of(sample_state(pos.engine.view(player_id), rng))
        # While dealing, a player has seen only its own cards: deal the others again.
        dealt = list(pos.dealt)
        others = [k for k in range(len(dealt)) if pos.seat_of(k) != player_id]
        pool = sorted(set(range(52)) - {c for k, c in enumerate(dealt) if k not in others})
        for k, card in zip(others, rng.sample(pool, len(others))):
            dealt[k] = card
        state = self.get_game().new_initial_state()
        for action in [a for a in (pos.dealer, pos.cut) if a is not None] + dealt:
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        """Everything, hidden cards included (for debugging)."""
        pos = self.pos
        if pos.engine is None:
            return (f"dealing: dealer {pos.dealer}, cut {pos.cut}, "
                    f"dealt {' '.join(DECK[c].code for c in pos.dealt)}")
        deal = pos.engine.deal
        return (f"dealer {deal.dealer}; trump {deal.trump.letter}; "
                + "; ".join(f"hand {s} " + " ".join(c.code for c in deal.hands[s]) for s in range(PLAYERS))
                + "; stock " + " ".join(c.code for c in deal.stock)
                + "; plays " + " ".join(c.code for c in pos.engine.plays))

    # -- what a player knows -----------------------------------------------------------------
    def text(self, player: int, recall: bool) -> str:
        """The information state (``recall``) or the observation of ``player``, as a string."""
        key = (player, recall)
        pos = self.pos
        text = pos.texts.get(key)
        if text is None:
            text = pos.texts[key] = (_view_text(pos.engine.view(player), recall) if pos.engine is not None
                                     else _dealing_text(pos, player))
        return text


def _dealing_text(pos: _Position, player: int) -> str:
    mine = [DECK[c].code for k, c in enumerate(pos.dealt) if pos.seat_of(k) == player]
    dealer = "?" if pos.dealer is None else pos.dealer
    cut = f"; trumps cut: {Suit(pos.cut).letter}" if pos.cut is not None else ""
    return f"player {player}; dealer {dealer}{cut}; dealing, {len(pos.dealt)} cards dealt; hand {' '.join(mine) or '-'}"


def _checked(action: int, bound: int, what: str) -> int:
    if not 0 <= action < bound:
        raise ValueError(f"{what} must be from 0 to {bound - 1}, not {action}")
    return action


def _codes(cards) -> str:
    return " ".join(c.code for c in sorted(cards, key=lambda c: c.index)) or "-"


def _view_text(view, recall: bool) -> str:
    """A view as one string: equal views, equal strings (and the other way round)."""
    parts = [f"player {view.seat}; dealer {view.dealer}; trumps {view.trump.letter}"
             + (f" (turned {view.turned.code})" if view.turned is not None else "")]
    parts.append(f"hand {_codes(view.hand)}")
    for seat, cards in enumerate(view.known):
        if seat != view.seat and cards:
            parts.append(f"player {seat} holds {_codes(cards)}")
    parts.append(f"stock {view.stock_count}" + (f", top {view.stock_top.code}" if view.stock_top else ""))
    if recall:
        for number, trick in enumerate(view.tricks, 1):
            draws = " ".join(c.code if c is not None else "??" for c in trick.draws)
            parts.append(f"trick {number}: {trick.leader} led " + " ".join(c.code for c in trick.cards)
                         + f", {trick.winner} won" + (f", drew {draws}" if draws else ""))
    else:
        for seat in range(view.players):
            parts.append(f"player {seat} captured {_codes(view.captured(seat))}")
    if view.to_play is not None:
        parts.append(f"{view.leader} led " + (" ".join(c.code for c in view.trick) or "-")
                     + f"; player {view.to_play} to play")
    else:
        parts.append("the deal is over")
    return "; ".join(parts)


class Observer:
    """OpenSpiel's observer: strings from the player's view, and a tensor of the table as it is.

    The tensor (``dict`` names its pieces): the player (2), the dealer (2), the trump suit (4),
    then card planes of 52: the player's hand, the cards it knows in the other hand, the
    exposed card, the card led to the trick in progress, the cards each player captured
    (2 × 52); and the share of the stock left (1). Only the player's own information (the
    default) can be observed: other kinds are refused.
    """

    PIECES = (("player", 2), ("dealer", 2), ("trump", 4), ("hand", 52), ("known", 52),
              ("stock_top", 52), ("led", 52), ("captured", 104), ("stock", 1))

    def __init__(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"{GAME_NAME}'s observer takes no parameters, not {params!r}")
        if iig_obs_type is not None and (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                                         or not iig_obs_type.public_info):
            raise ValueError(f"{GAME_NAME} observes one player's own information only "
                             "(public and private), not other observation types")
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(sum(size for _, size in self.PIECES), np.float32)
        self.dict = {}
        start = 0
        for name, size in self.PIECES:
            self.dict[name] = self.tensor[start:start + size]
            start += size

    def set_from(self, state: CaliforniaJackState, player: int) -> None:
        """Fill the tensor for ``player`` (the observation: the table as it is now)."""
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        pos = state.pos
        if pos.dealer is not None:
            d["dealer"][pos.dealer] = 1
        if pos.engine is None:
            for k, card in enumerate(pos.dealt):
                if pos.seat_of(k) == player:
                    d["hand"][card] = 1
            if pos.cut is not None:
                d["trump"][pos.cut] = 1
            return
        view = pos.engine.view(player)
        d["trump"][int(view.trump)] = 1
        for card in view.hand:
            d["hand"][card.index] = 1
        for seat, cards in enumerate(view.known):
            for card in cards if seat != player else ():
                d["known"][card.index] = 1
        if view.stock_top is not None:
            d["stock_top"][view.stock_top.index] = 1
        if view.trick:
            d["led"][view.trick[0].index] = 1
        for seat in range(PLAYERS):
            for card in view.captured(seat):
                d["captured"][52 * seat + card.index] = 1
        d["stock"][0] = view.stock_count / view.rules.stock_size

    def string_from(self, state: CaliforniaJackState, player: int) -> str:
        """The information state (perfect recall) or the observation of ``player``."""
        return state.text(player, self.recall)


def ismcts_bot(game: CaliforniaJackGame, simulations: int, seed: int, uct_c: float = UCT_C):
    """OpenSpiel's Python ISMCTS with random rollouts, every random choice seeded by ``seed``.

    Its tree, its rollouts and its guesses at the hidden cards each draw from their own seeded
    generator (OpenSpiel's bot would otherwise make an unseeded sampler for every guess).
    """
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations,
                           random_state=np.random.RandomState(seed + 1))
    sampler = pyspiel.UniformProbabilitySampler(seed + 2, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


pyspiel.register_game(_game_type(True), CaliforniaJackGame)
