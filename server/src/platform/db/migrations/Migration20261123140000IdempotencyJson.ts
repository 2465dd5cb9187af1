import { Migration } from '@mikro-orm/migrations';

/**
 * Stored answers as `json`, not `jsonb`: jsonb reorders object keys, and a replay must be the
 * first answer byte for byte.
 */
export class Migration20261123140000IdempotencyJson extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "idempotency_keys" alter column "response_body" type json using "response_body"::text::json;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "response_body" type jsonb using "response_body"::jsonb;`);
  }
}
