import { Migration } from '@mikro-orm/migrations';

/** Builder apps and keys, idempotency records. */
export class Migration20261122000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "builder_apps" ("id" uuid not null, "name" varchar(200) not null, "created_at" timestamptz not null, constraint "builder_apps_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create table "builder_keys" ("id" uuid not null, "builder_app_id" uuid not null, "name" varchar(200) not null, "tier" varchar(16) not null, "key_hash" varchar(64) not null, "key_prefix" varchar(16) not null, "revoked" boolean not null default false, "created_at" timestamptz not null, constraint "builder_keys_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "builder_keys" add constraint "builder_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(
      `alter table "builder_keys" add constraint "builder_keys_builder_app_id_foreign" foreign key ("builder_app_id") references "builder_apps" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create table "idempotency_keys" ("id" bigserial primary key, "tenant_id" uuid not null, "caller" varchar(200) not null, "route" varchar(300) not null, "idempotency_key" varchar(255) not null, "fingerprint" varchar(64) not null, "state" varchar(16) not null, "response_status" int null, "response_body" jsonb null, "response_headers" jsonb null, "locked_at" timestamptz not null, "created_at" timestamptz not null, "expires_at" timestamptz not null);`,
    );
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_tenant_id_caller_route_idempotency_key_unique" unique ("tenant_id", "caller", "route", "idempotency_key");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
    this.addSql(`drop table if exists "builder_keys" cascade;`);
    this.addSql(`drop table if exists "builder_apps" cascade;`);
  }
}
