import { Migration } from '@mikro-orm/migrations';

/** What trading and settlement need on the duel row: the market's fee, its liquidity and resolution times. */
export class Migration20261123090000DuelLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "duels" add column "fee_bps" int not null default 0, add column "initial_liquidity" numeric(78,0) not null default 0, add column "resolved_at" timestamptz null, add column "contest_ends_at" timestamptz null;`,
    );
    this.addSql(`create index "duels_pending_chain_idx" on "duels" ("created_at") where "chain_state" = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "duels_pending_chain_idx";`);
    this.addSql(
      `alter table "duels" drop column "fee_bps", drop column "initial_liquidity", drop column "resolved_at", drop column "contest_ends_at";`,
    );
  }
}
