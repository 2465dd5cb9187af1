import type { CommentaryGeneratorPort, CommentaryLine, MatchFacts } from './commentary.port.js';

/**
 * Commentary from fixed templates: the same facts always give the same text (tests compare it
 * word for word), one line per event in minute order, framed by a preview and a status or result.
 */
export class TemplateCommentaryGenerator implements CommentaryGeneratorPort {
  readonly name = 'template';

  generate(f: MatchFacts): Promise<CommentaryLine[]> {
    const team = (side: 'home' | 'away') => (side === 'home' ? f.homeTeam : f.awayTeam);
    const lines: CommentaryLine[] = [
      {
        minute: null,
        kind: 'preview',
        text: `${f.homeTeam} host ${f.awayTeam}, kick-off ${f.startsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      },
    ];
    for (const e of [...f.events].sort((a, b) => a.minute - b.minute)) {
      switch (e.kind) {
        case 'goal':
          lines.push({
            minute: e.minute,
            kind: 'goal',
            text: `${e.minute}' GOAL! ${e.player} scores for ${team(e.side)}${e.result ? ` (${e.result})` : ''}.`,
          });
          break;
        case 'yellow_card':
          lines.push({
            minute: e.minute,
            kind: 'card',
            text: `${e.minute}' Yellow card for ${e.player} (${team(e.side)}).`,
          });
          break;
        case 'red_card':
          lines.push({
            minute: e.minute,
            kind: 'card',
            text: `${e.minute}' Red card! ${e.player} is sent off; ${team(e.side)} play on with ten.`,
          });
          break;
        case 'substitution':
          lines.push({
            minute: e.minute,
            kind: 'substitution',
            text: `${e.minute}' Change for ${team(e.side)}: ${e.player}.`,
          });
          break;
      }
    }
    const score = f.score ? `${f.homeTeam} ${f.score.home}-${f.score.away} ${f.awayTeam}` : null;
    switch (f.state) {
      case 'finished': {
        const s = f.score ?? { home: 0, away: 0 };
        const verdict =
          s.home === s.away ? 'The points are shared' : `${s.home > s.away ? f.homeTeam : f.awayTeam} take the win`;
        lines.push({ minute: 90, kind: 'result', text: `Full time: ${score ?? 'no score reported'}. ${verdict}.` });
        break;
      }
      case 'in_play':
        lines.push({ minute: null, kind: 'status', text: `In play: ${score ?? 'no score yet'}.` });
        break;
      case 'scheduled':
        lines.push({ minute: null, kind: 'status', text: 'Not started yet.' });
        break;
      case 'void':
        lines.push({ minute: null, kind: 'status', text: 'The match will not be played as scheduled.' });
        break;
    }
    return Promise.resolve(lines);
  }
}
