import { EntitySchema } from '@mikro-orm/core';

/** A builder app's user with a managed wallet whose key is stored encrypted. */
export interface UserRecord {
  id: string;
  builderAppId: string;
  eoaAddress: string | null;
  username: string | null;
  usernameLower: string | null;
  profileImageUrl: string | null;
  managedAddress: string;
  walletKeyCiphertext: string;
  walletKeyVersion: number;
  inviteCode: string | null;
  createdAt: Date;
}

export const UserEntity = new EntitySchema<UserRecord>({
  name: 'User',
  tableName: 'users',
  uniques: [
    { name: 'users_app_eoa_unique', properties: ['builderAppId', 'eoaAddress'] },
    { name: 'users_app_username_unique', properties: ['builderAppId', 'usernameLower'] },
  ],
  // The users report's keyset order.
  indexes: [{ name: 'users_created_id_idx', properties: ['createdAt', 'id'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    builderAppId: { type: 'uuid' },
    eoaAddress: { type: 'string', length: 42, nullable: true },
    username: { type: 'string', length: 20, nullable: true },
    usernameLower: { type: 'string', length: 20, nullable: true },
    profileImageUrl: { type: 'text', nullable: true },
    managedAddress: { type: 'string', length: 42, unique: true },
    walletKeyCiphertext: { type: 'text' },
    walletKeyVersion: { type: 'smallint' },
    inviteCode: { type: 'string', length: 64, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** An identity-provider subject linked to a user. */
export interface UserIdentityRecord {
  id: string;
  builderAppId: string;
  userId: string;
  issuer: string;
  subject: string;
  createdAt: Date;
}

export const UserIdentityEntity = new EntitySchema<UserIdentityRecord>({
  name: 'UserIdentity',
  tableName: 'user_identities',
  uniques: [{ name: 'user_identities_app_issuer_subject_unique', properties: ['builderAppId', 'issuer', 'subject'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    builderAppId: { type: 'uuid' },
    userId: { type: 'uuid' },
    issuer: { type: 'string', length: 300 },
    subject: { type: 'string', length: 300 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** A single-use Sign-In with Ethereum nonce. */
export interface AuthNonceRecord {
  nonce: string;
  builderAppId: string;
  address: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export const AuthNonceEntity = new EntitySchema<AuthNonceRecord>({
  name: 'AuthNonce',
  tableName: 'auth_nonces',
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    nonce: { type: 'string', length: 64, primary: true },
    builderAppId: { type: 'uuid' },
    address: { type: 'string', length: 42 },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    usedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** An operator of the platform. */
export interface AdminRecord {
  id: string;
  email: string;
  passwordHash: string;
  totpSecretCiphertext: string | null;
  totpPendingCiphertext: string | null;
  twoFactorEnabled: boolean;
  backupCodeHashes: string[];
  /** The last TOTP time step accepted: a code of this step or an earlier one is refused. */
  totpLastStep: number | null;
  /** Set when the account is switched off: its sessions end and it cannot sign in. */
  deactivatedAt: Date | null;
  createdAt: Date;
}

export const AdminEntity = new EntitySchema<AdminRecord>({
  name: 'Admin',
  tableName: 'admins',
  properties: {
    id: { type: 'uuid', primary: true },
    email: { type: 'string', length: 320, unique: true },
    passwordHash: { type: 'text' },
    totpSecretCiphertext: { type: 'text', nullable: true },
    totpPendingCiphertext: { type: 'text', nullable: true },
    twoFactorEnabled: { type: 'boolean' },
    backupCodeHashes: { type: 'string[]', columnType: 'text[]' },
    totpLastStep: { type: 'integer', nullable: true },
    deactivatedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/**
 * An admin token the server issued, by its `jti`: a full session, or the short challenge of a
 * two-factor login. A token is valid only while its row exists, is not revoked and its admin is
 * active, so a token the server did not issue (or an admin that is gone) never authenticates.
 */
export interface AdminSessionRecord {
  id: string;
  adminId: string;
  kind: 'session' | 'challenge';
  issuedAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export const AdminSessionEntity = new EntitySchema<AdminSessionRecord>({
  name: 'AdminSession',
  tableName: 'admin_sessions',
  indexes: [{ properties: ['adminId'] }, { properties: ['expiresAt'] }],
  properties: {
    id: { type: 'string', length: 64, primary: true },
    adminId: { type: 'uuid' },
    kind: { type: 'string', length: 16 },
    issuedAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/**
 * A wallet credential already accepted, keyed by what was signed (address and timestamp), so no
 * re-encoding of the signature makes it new again.
 */
export interface UsedWalletCredentialRecord {
  id: string;
  expiresAt: Date;
}

export const UsedWalletCredentialEntity = new EntitySchema<UsedWalletCredentialRecord>({
  name: 'UsedWalletCredential',
  tableName: 'used_wallet_credentials',
  properties: {
    id: { type: 'string', length: 64, primary: true },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** The identity area's tables, for the ORM the wiring builds (server/src/entities.ts). */
export const identityEntities = [
  UserEntity,
  UserIdentityEntity,
  AuthNonceEntity,
  AdminEntity,
  AdminSessionEntity,
  UsedWalletCredentialEntity,
] as const;
