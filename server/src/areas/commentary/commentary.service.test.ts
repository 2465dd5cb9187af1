import { describe, expect, it } from 'vitest';
import type {
  CommentaryGeneratorPort,
  CommentaryLine,
  MatchFacts,
  MatchFactsPort,
} from '../../adapters/commentary/commentary.port.js';
import { CommentaryService } from './commentary.service.js';

const FACTS: MatchFacts = {
  fixtureId: 7,
  name: 'Home v Away',
  homeTeam: 'Home',
  awayTeam: 'Away',
  startsAt: new Date(Date.UTC(2026, 10, 28, 15)),
  state: 'finished',
  score: { home: 2, away: 1 },
  events: [],
};

describe('commentary of a fixture', () => {
  it('runs the provider’s facts through the generator and joins its lines; an unknown fixture is NOT_FOUND', async () => {
    const facts: MatchFactsPort = { facts: async (id) => (id === 7 ? FACTS : null) };
    const seen: MatchFacts[] = [];
    const lines: CommentaryLine[] = [
      { minute: null, kind: 'preview', text: 'Home host Away.' },
      { minute: 90, kind: 'result', text: 'Full time: 2-1.' },
    ];
    const generator: CommentaryGeneratorPort = {
      name: 'scripted',
      generate: async (f) => {
        seen.push(f);
        return lines;
      },
    };
    const service = new CommentaryService(facts, generator);
    const out = await service.forFixture(7);
    expect(out).toEqual({
      fixtureId: 7,
      generator: 'scripted',
      state: 'finished',
      lines,
      text: 'Home host Away.\nFull time: 2-1.',
    });
    expect(seen).toEqual([FACTS]);
    await expect(service.forFixture(8)).rejects.toMatchObject({ code: 'NOT_FOUND', details: { fixtureId: 8 } });
    expect(seen).toHaveLength(1);
  });
});
