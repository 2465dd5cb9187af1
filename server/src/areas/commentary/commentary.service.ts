import type { CommentaryGeneratorPort, MatchFactsPort } from '../../adapters/commentary/commentary.port.js';
import { DomainError } from '../../errors.js';

/** Match commentary (docs/operations.md, "Commentary"): the provider's facts through the generator port. */
export class CommentaryService {
  constructor(
    private readonly facts: MatchFactsPort,
    private readonly generator: CommentaryGeneratorPort,
  ) {}

  async forFixture(fixtureId: number) {
    const facts = await this.facts.facts(fixtureId);
    if (!facts)
      throw new DomainError('NOT_FOUND', `The sports provider has no fixture ${fixtureId}`, { details: { fixtureId } });
    const lines = await this.generator.generate(facts);
    return {
      fixtureId,
      generator: this.generator.name,
      state: facts.state,
      lines: [...lines],
      text: lines.map((l) => l.text).join('\n'),
    };
  }
}
