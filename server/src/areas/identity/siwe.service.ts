import { randomBytes } from 'node:crypto';
import { getAddress, verifyMessage, type Hex } from 'viem';
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { DomainError } from '../../errors.js';
import type { SiweNonceRepository } from './siwe-nonce.repository.js';
import type { Clock } from '../../platform/clock.js';

export interface SiweSettings {
  readonly domain: string;
  readonly uri: string;
  readonly chainId: number;
  readonly nonceTtlSeconds: number;
}

const RESOURCE_PREFIX = 'urn:duelkit:builder-app:';

/**
 * Sign-In with Ethereum: challenges bound to the domain and the builder app, single-use nonces
 * consumed atomically, signatures verified against the address in the message.
 */
export class SiweService {
  constructor(
    private readonly nonces: SiweNonceRepository,
    private readonly settings: SiweSettings,
    private readonly clock: Clock,
  ) {}

  async challenge(builderAppId: string, address: string) {
    const nonce = randomBytes(16).toString('hex');
    const issuedAt = new Date(this.clock.now());
    const expiresAt = new Date(issuedAt.getTime() + this.settings.nonceTtlSeconds * 1000);
    const checksummed = getAddress(address);
    const message = createSiweMessage({
      domain: this.settings.domain,
      address: checksummed,
      statement: `Sign in to Duelkit (builder app ${builderAppId}).`,
      uri: this.settings.uri,
      version: '1',
      chainId: this.settings.chainId,
      nonce,
      issuedAt,
      expirationTime: expiresAt,
      resources: [`${RESOURCE_PREFIX}${builderAppId}`],
    });
    await this.nonces.insert({ nonce, builderAppId, address: checksummed, expiresAt });
    return {
      message,
      nonce,
      timestamp: issuedAt.toISOString(),
      domain: this.settings.domain,
      builderAppId,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** Verifies a signed challenge for this builder app and consumes its nonce; returns the signer. */
  async verify(builderAppId: string, message: string, signature: string): Promise<string> {
    const parsed = parseSiweMessage(message);
    if (!parsed.address || !parsed.nonce)
      throw new DomainError('SIGNATURE_INVALID', 'Not a Sign-In with Ethereum message');
    const appInMessage = parsed.resources?.find((r) => r.startsWith(RESOURCE_PREFIX))?.slice(RESOURCE_PREFIX.length);
    if (appInMessage !== builderAppId) {
      throw new DomainError('TENANT_MISMATCH', 'This challenge was issued to another builder app');
    }
    if (
      parsed.domain !== this.settings.domain ||
      !validateSiweMessage({ message: parsed, domain: this.settings.domain, time: new Date(this.clock.now()) })
    ) {
      // validateSiweMessage also checks the time window; tell an expired nonce apart below.
      if (parsed.expirationTime && parsed.expirationTime.getTime() <= this.clock.now()) {
        throw new DomainError('NONCE_EXPIRED', 'The challenge has expired; request a new one');
      }
      throw new DomainError('SIGNATURE_INVALID', 'The message is not valid for this domain');
    }
    const valid = await verifyMessage({ address: parsed.address, message, signature: signature as Hex }).catch(
      () => false,
    );
    if (!valid) throw new DomainError('SIGNATURE_INVALID', 'The signature does not match the address in the message');
    const outcome = await this.nonces.consume(parsed.nonce, builderAppId, getAddress(parsed.address));
    if (outcome === true) return getAddress(parsed.address);
    if (outcome === 'unknown') throw new DomainError('SIGNATURE_INVALID', 'Unknown challenge nonce');
    if (outcome === 'used') throw new DomainError('NONCE_REUSED', 'This challenge was already used; request a new one');
    if (outcome === 'expired') throw new DomainError('NONCE_EXPIRED', 'The challenge has expired; request a new one');
    throw new DomainError('SIGNATURE_INVALID', 'The challenge does not belong to this wallet');
  }
}
