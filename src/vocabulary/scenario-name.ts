/*
 * What a round's scenarios may be called and how many it may have: the round config checks both when
 * it is read, and the scorecard when a card is, so a config that loads always makes a card that reads.
 */

/** A scenario's name: what the card's table and a config's `scenarios[].name` call it. */
export const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,63}$/;
/** Most scenarios one round may have: each costs a benchmark per engine per run. */
export const MAX_SCENARIOS = 32;
