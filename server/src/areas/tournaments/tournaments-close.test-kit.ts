import type { TestServer } from '../../../test/support/test-server.js';

/** An admin bearer token: a fresh admin logged in over HTTP (the markets host signs admin sessions). */
export async function adminTokenOf(
  server: Pick<TestServer, 'container' | 'marketsUrl' | 'builderKey'>,
): Promise<string> {
  const email = `tournaments-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'tournament admin password';
  await server.container.identity.admins.create(email, password);
  const res = await fetch(`${server.marketsUrl}/svc/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-builder-api-key': server.builderKey },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`admin login: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** The admin actions recorded for a tournament, oldest first. */
export async function auditOf(server: Pick<TestServer, 'container'>, tournamentId: string) {
  return server.container.orm.em
    .fork()
    .getConnection()
    .execute<{ action: string; actor: string; reason: string | null }[]>(
      `select "action", "actor", "reason" from "tournament_admin_actions" where "tournament_id" = ? order by "created_at", "id"`,
      [tournamentId],
    );
}
