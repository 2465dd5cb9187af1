import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeMeta } from '../src/index.js';
import { contractRoutes, coverage, readSpec, routeKey, sharedSpecFile, vendoredSpecFile } from './spec-coverage.js';

describe('contract against the spec endpoint list', () => {
  const spec = new Map(readSpec().map((e) => [routeKey(e.host, e.method, e.path), e]));

  it.skipIf(!existsSync(sharedSpecFile))('vendors the current shared/spec/endpoints.tsv', () => {
    expect(readFileSync(vendoredSpecFile, 'utf8')).toBe(readFileSync(sharedSpecFile, 'utf8'));
  });

  it('has no route that is not in endpoints.tsv', () => {
    expect(coverage().extra).toEqual([]);
  });

  it('declares the auth kind, success status and section the spec lists for every route', () => {
    for (const { host, route } of contractRoutes()) {
      const entry = spec.get(routeKey(host, route.method, route.path));
      const meta = routeMeta(route);
      expect({ path: route.path, auth: meta.auth, section: meta.section }).toEqual({
        path: route.path,
        auth: entry?.auth,
        section: entry?.section,
      });
      expect(Object.keys(route.responses)).toContain(String(entry?.success));
    }
  });

  it('gives every route a schema for every status, including errors', () => {
    for (const { route } of contractRoutes()) {
      for (const status of ['400', '401', '403', '404', '429', '500']) {
        expect(route.responses, `${route.path} ${status}`).toHaveProperty(status);
      }
    }
  });

  it('says of every non-GET route whether a client may send it again: idempotent, repeatable, or a one-time sign-in', () => {
    // Sign-ins that consume a one-time signature or code: sending them again fails instead of
    // repeating, so clients retry them only when the service says they did not run.
    const oneTime = [
      'POST /svc/admin/auth/2fa/verify',
      'POST /svc/admin/auth/2fa/verify-setup',
      'POST /svc/user/auth/eoa/login',
      'POST /svc/user/auth/idp/migrate',
      'POST /user/auth/login',
    ];
    const undecided = contractRoutes()
      .filter(({ route }) => route.method !== 'GET')
      .filter(({ route }) => !routeMeta(route).idempotent && !routeMeta(route).repeatable)
      .map(({ route }) => `${route.method} ${route.path}`);
    expect(undecided.sort()).toEqual(oneTime.sort());
    for (const { route } of contractRoutes()) {
      const meta = routeMeta(route);
      expect(meta.idempotent && meta.repeatable, `${route.path}: idempotent or repeatable, not both`).toBeFalsy();
    }
  });
});
