/** Renders a user's value for an error message: short, unambiguous, and never the whole of a big input. */
export function describeValue(value: unknown, maxLength = 60): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  const json = JSON.stringify(value) ?? typeof value;
  return json.length > maxLength ? `${json.slice(0, maxLength - 1)}…` : json;
}
