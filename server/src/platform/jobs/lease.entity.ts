import { EntitySchema } from '@mikro-orm/core';

/** A named lease; whoever holds an unexpired one is the single active worker of that kind. */
export interface LeaseRow {
  name: string;
  owner: string;
  expiresAt: Date;
}

export const LeaseEntity = new EntitySchema<LeaseRow>({
  name: 'Lease',
  tableName: 'leases',
  properties: {
    name: { type: 'string', length: 100, primary: true },
    owner: { type: 'string', length: 200 },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
