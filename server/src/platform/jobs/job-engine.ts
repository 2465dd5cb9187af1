import { createPostgresBackend, runMigrations, withBackend, type Job, type PgPool } from 'bullmq';
import pg from 'pg';
import type { Logger } from '../../logger.js';
import { systemClock } from '../clock.js';

const { Queue, Worker } = withBackend(createPostgresBackend);
type PgQueue = InstanceType<typeof Queue>;

export interface JobEngineOptions {
  readonly databaseUrl: string;
  /** Connections for all queues and workers together (each worker also holds one to listen). */
  readonly poolMax: number;
  /** On the embedded database NOTIFY never arrives, so workers poll every second. */
  readonly embedded: boolean;
  readonly logger: Logger;
}

export type JobHandler<T> = (data: T, job: Job<T>) => Promise<void>;

export interface WorkerSpec<T> {
  readonly queue: string;
  readonly handler: JobHandler<T>;
  readonly concurrency?: number;
}

/**
 * Durable background work on BullMQ's PostgreSQL backend: the same code on the embedded
 * database and on a real server, sharing one pg.Pool across every queue and worker. Delivery is
 * at least once, so every handler's effect must be idempotent (unique keys in the database).
 */
export class JobEngine {
  private readonly queues = new Map<string, PgQueue>();
  private readonly workers: { close(): Promise<void> }[] = [];

  /** BullMQ types the pool structurally; node-postgres' Pool satisfies it at run time. */
  private readonly connection: PgPool;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly options: JobEngineOptions,
  ) {
    this.connection = pool as unknown as PgPool;
  }

  static async start(options: JobEngineOptions): Promise<JobEngine> {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax,
      keepAlive: true,
      // Ignored by the embedded database, where the search_path is set on the instance itself.
      options: '-c search_path=bullmq,public',
    });
    pool.setMaxListeners(0);
    pool.on('error', (err) => options.logger.warn({ err: err.message }, 'job engine pool error'));
    const client = await pool.connect();
    try {
      await runMigrations(client, 'bullmq');
    } finally {
      client.release();
    }
    return new JobEngine(pool, options);
  }

  queue(name: string): PgQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Adds a job; a `jobId` makes the add itself idempotent. */
  async add<T extends object>(queue: string, name: string, data: T, opts: { jobId?: string; delay?: number } = {}) {
    return this.queue(queue).add(name, data, {
      attempts: 8,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
      ...opts,
    });
  }

  /** Runs `name` on `queue` every `everyMs`, once across all instances. */
  async every<T extends object>(queue: string, name: string, everyMs: number, data: T): Promise<void> {
    await this.queue(queue).upsertJobScheduler(name, { every: everyMs }, { name, data });
  }

  work<T>(spec: WorkerSpec<T>): void {
    const worker = new Worker(
      spec.queue,
      async (job: Job<T>) => {
        await spec.handler(job.data, job);
      },
      {
        connection: this.connection,
        concurrency: spec.concurrency ?? 1,
        drainDelay: this.options.embedded ? 1 : 5,
        lockDuration: 10_000,
        stalledInterval: 5_000,
      },
    );
    worker.on('failed', (job, err) =>
      this.options.logger.warn({ queue: spec.queue, jobId: job?.id, err: err.message }, 'job failed'),
    );
    worker.on('error', (err) => this.options.logger.warn({ queue: spec.queue, err: err.message }, 'worker error'));
    this.workers.push(worker);
  }

  /**
   * Stops taking jobs and waits for the running ones until `deadline` (epoch ms); a job still
   * running then is left to the stalled-job check, which hands it to another worker once this
   * process is gone (every handler is idempotent). Queues stay usable, so requests still draining
   * can add jobs.
   */
  async stopWorkers(deadline: number): Promise<void> {
    const workers = this.workers.splice(0);
    let timer: NodeJS.Timeout | undefined;
    const graceful = Promise.all(workers.map((w) => w.close())).then(() => true);
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - systemClock.now()));
    });
    const finished = await Promise.race([graceful, timedOut]);
    clearTimeout(timer);
    if (!finished) this.options.logger.warn('jobs still running at the shutdown deadline; left to another worker');
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.pool.end();
  }
}
