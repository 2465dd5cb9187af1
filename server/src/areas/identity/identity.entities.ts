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
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** A token id revoked before its expiry (logout), or a wallet credential already used. */
export interface SpentRecord {
  id: string;
  expiresAt: Date;
}

export const RevokedTokenEntity = new EntitySchema<SpentRecord>({
  name: 'RevokedToken',
  tableName: 'revoked_tokens',
  properties: {
    id: { type: 'string', length: 100, primary: true },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export const UsedWalletCredentialEntity = new EntitySchema<SpentRecord>({
  name: 'UsedWalletCredential',
  tableName: 'used_wallet_credentials',
  properties: {
    id: { type: 'string', length: 64, primary: true },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
