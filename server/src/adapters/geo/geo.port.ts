/** What a lookup sees of a request. */
export interface GeoRequest {
  readonly ip: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Finds the ISO 3166-1 alpha-2 country a request comes from, or null when unknown. */
export interface GeoLookupPort {
  countryOf(req: GeoRequest): string | null;
}
