import { loadConfig, withDefaultDataDir, type Config } from '../config.js';
import { credentialPath, readCredential } from '../platform/operator/operator-credential.js';

/** What a failed operator call printed and the exit code it ends the command with. */
export class OperatorCallError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/**
 * Calls the running server's operator surface. The commands never open the database or sign
 * anything themselves: the server does the work with its own database and chain port, and
 * answers only what it stored.
 */
export async function callOperator<T>(
  path: string,
  body: unknown,
  config: Config = loadConfig(withDefaultDataDir(process.env)),
): Promise<T> {
  const { port, credentialDir } = config.operator;
  if (port === null) throw new OperatorCallError('OPERATOR_PORT is off: the server has no operator surface.', 2);
  const credential = readCredential(credentialDir, port);
  if (!credential) {
    throw new OperatorCallError(
      `No running Duelkit server found (no ${credentialPath(credentialDir, port)}). Start it (pnpm start) with ` +
        'the same DUELKIT_DATA_DIR and OPERATOR_PORT as this command, then run the command again.',
      1,
    );
  }
  let res: Response;
  try {
    res = await fetch(`${credential.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new OperatorCallError(`The server that wrote ${credentialPath(credentialDir, port)} is not running.`, 1);
  }
  const answer = (await res.json().catch(() => ({}))) as T & {
    code?: string;
    message?: string;
    fieldErrors?: Record<string, string[]>;
  };
  if (!res.ok) {
    const fields = Object.entries(answer.fieldErrors ?? {}).map(([k, v]) => `\n  ${k}: ${v.join(', ')}`);
    throw new OperatorCallError(`${answer.code ?? res.status}: ${answer.message ?? 'failed'}${fields.join('')}`, 1);
  }
  return answer;
}

/** Runs a command body, turning operator errors into a message and an exit code. */
export async function runCommand(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (!(err instanceof OperatorCallError)) throw err;
    console.error(err.message);
    process.exitCode = err.exitCode;
  }
}
