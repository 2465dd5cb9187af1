/**
 * JSON with object keys sorted at every depth and `undefined` members left out (as
 * `JSON.stringify` leaves them out), so two values that are equal as data serialise to the same
 * string whatever their key order. Used for fingerprints and signatures.
 *
 * @example canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] }) // '{"a":[{"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .filter((k) => obj[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
