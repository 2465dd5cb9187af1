import { Migration } from '@mikro-orm/migrations';

/** Users with managed wallets, identity links, SIWE nonces, admins, revocations. */
export class Migration20261122040000Identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "users" ("id" uuid not null, "builder_app_id" uuid not null, "eoa_address" varchar(42) null, "username" varchar(20) null, "username_lower" varchar(20) null, "profile_image_url" text null, "managed_address" varchar(42) not null, "wallet_key_ciphertext" text not null, "wallet_key_version" smallint not null, "invite_code" varchar(64) null, "created_at" timestamptz not null, constraint "users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_managed_address_unique" unique ("managed_address");`);
    this.addSql(`alter table "users" add constraint "users_app_eoa_unique" unique ("builder_app_id", "eoa_address");`);
    this.addSql(
      `alter table "users" add constraint "users_app_username_unique" unique ("builder_app_id", "username_lower");`,
    );
    this.addSql(
      `create table "user_identities" ("id" uuid not null, "builder_app_id" uuid not null, "user_id" uuid not null, "issuer" varchar(300) not null, "subject" varchar(300) not null, "created_at" timestamptz not null, constraint "user_identities_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "user_identities" add constraint "user_identities_app_issuer_subject_unique" unique ("builder_app_id", "issuer", "subject");`,
    );
    this.addSql(
      `create table "auth_nonces" ("nonce" varchar(64) not null, "builder_app_id" uuid not null, "address" varchar(42) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "auth_nonces_pkey" primary key ("nonce"));`,
    );
    this.addSql(`create index "auth_nonces_expires_at_index" on "auth_nonces" ("expires_at");`);
    this.addSql(
      `create table "admins" ("id" uuid not null, "email" varchar(320) not null, "password_hash" text not null, "totp_secret_ciphertext" text null, "totp_pending_ciphertext" text null, "two_factor_enabled" boolean not null, "backup_code_hashes" text[] not null, "created_at" timestamptz not null, constraint "admins_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "admins" add constraint "admins_email_unique" unique ("email");`);
    this.addSql(
      `create table "revoked_tokens" ("id" varchar(100) not null, "expires_at" timestamptz not null, constraint "revoked_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create table "used_wallet_credentials" ("id" varchar(64) not null, "expires_at" timestamptz not null, constraint "used_wallet_credentials_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    for (const t of [
      'used_wallet_credentials',
      'revoked_tokens',
      'admins',
      'auth_nonces',
      'user_identities',
      'users',
    ]) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
  }
}
