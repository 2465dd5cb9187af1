import type { AsyncLocalStorage } from 'node:async_hooks';
import { RequestContext, type EntityManager } from '@mikro-orm/core';

/**
 * The storage `RequestContext.create` runs in (private in MikroORM's types, public at run time);
 * checked once at load so an upgrade that moves it fails at start, not on a request.
 */
const storage = (RequestContext as unknown as { storage?: AsyncLocalStorage<RequestContext> }).storage;
if (!storage || typeof storage.run !== 'function') {
  throw new Error('MikroORM RequestContext.storage is not an AsyncLocalStorage: update orm-request.context.ts');
}
const contextStorage: AsyncLocalStorage<RequestContext> = storage;

/**
 * The one ORM fork of a request, made the first time something asks for it: routes that never
 * touch the ORM (health, cached lists, routes on direct SQL) pay for no fork. MikroORM looks a
 * request's fork up by name only (`RequestContext.getEntityManager`), which this answers.
 */
class LazyForks {
  private fork: EntityManager | undefined;

  constructor(private readonly em: EntityManager) {}

  get(name: string): EntityManager | undefined {
    if (name !== this.em.name) return undefined;
    // Forked outside this context, from the global manager itself, as `RequestContext.create`
    // does before it enters one: the fork's own setup resolves the context, which would ask this
    // very map again.
    this.fork ??= contextStorage.exit(() => this.em.fork({ useContext: true, disableContextResolution: true }));
    return this.fork;
  }
}

/**
 * Runs `next` in a request context of `em` whose fork is made on first use; the same thing as
 * `RequestContext.create(em, next)` for everything that reads the context.
 */
export function withOrmRequestContext(em: EntityManager, next: () => void): void {
  const context = new RequestContext(new LazyForks(em) as unknown as Map<string, EntityManager>);
  contextStorage.run(context, next);
}
