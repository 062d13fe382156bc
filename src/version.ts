/** Bumped with each release; written into every card so a card says which scorer made it. */
export const SPEEDGATE_VERSION = "0.1.0";
