import { Migration } from '@mikro-orm/migrations';

/** Counts deliveries that reused a bridge event id with a different payload (refused, never credited). */
export class Migration20261127040000BridgeDepositConflicts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "bridge_deposits" add column "conflicting_deliveries" int not null default 0, add column "last_conflict_at" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "bridge_deposits" drop column if exists "conflicting_deliveries", drop column if exists "last_conflict_at";`,
    );
  }
}
