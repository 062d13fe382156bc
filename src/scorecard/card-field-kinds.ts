import { z } from "zod";

/** The field kinds every part of a card's schema bounds its numbers and strings with. */

export const text = (max: number) => z.string().max(max);
export const count = z.number().int().min(0).max(10_000_000);
export const finiteOrNull = z.number().finite().nullable();
// A speedup is a ratio of durations: a negative one can only come from a forged or broken card.
export const ratioOrNull = z.number().finite().min(0).nullable();
export const fraction = z.number().finite().min(0).max(1);
