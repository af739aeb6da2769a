// Test roll: who would take part in a run with this seed, and why (each member's roll against its chance).
import { useId, useState } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import { useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { testRoll } from '../../stores/council/council-commands';
import { useAction } from '../../components/use-action';

type TestRollResult = MethodOutput<'council.testRoll'>;

export const MAX_SEED = 4294967295;

export function parseSeed(text: string): number | null | 'invalid' {
  const t = text.trim();
  if (!t) return null;
  if (!/^\d{1,10}$/.test(t)) return 'invalid';
  const n = Number(t);
  return n <= MAX_SEED ? n : 'invalid';
}


function reasonText(r: TestRollResult['rolls'][number]): string {
  switch (r.reason) {
    case 'always':
      return 'chance 100%: always';
    case 'never':
      return 'chance 0%: never';
    case 'no-tools':
      return 'no tools: sits out';
    case 'fallback':
      return 'every roll failed: picked by the at-least-one fallback';
    default:
      return r.active ? `${r.roll.toFixed(2)} < ${r.chance}` : `${r.roll.toFixed(2)} ≥ ${r.chance}`;
  }
}

function RollTable(props: { rolls: TestRollResult['rolls']; caption: string }) {
  return (
    <table className="roll-table" data-testid="roll-table">
      <caption className="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Member</th>
          <th scope="col">Chance</th>
          <th scope="col">Roll</th>
          <th scope="col">Takes part</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {props.rolls.map((r) => (
          <tr key={r.memberId} className={r.active ? 'roll-table__in' : 'roll-table__out'} data-testid="roll-row" data-active={r.active}>
            <th scope="row">{r.memberName}</th>
            <td>{r.chance}%</td>
            <td>
              <span className="roll-meter" aria-hidden="true">
                <span className="roll-meter__chance" style={{ width: `${r.chance}%` }} />
                <span className={`roll-meter__roll roll-meter__roll--${r.active ? 'in' : 'out'}`} style={{ left: `${Math.min(100, Math.max(0, r.roll))}%` }} />
              </span>
              <code>{r.roll.toFixed(2)}</code>
            </td>
            <td>{r.active ? <span className="badge badge--ok">yes</span> : <span className="badge badge--neutral">no</span>}</td>
            <td className="roll-table__why">{reasonText(r)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TestRoll(props: { seedText: string; onUseSeed(seed: number): void }) {
  const host = useHost();
  const id = useId();
  const { busy, error, run } = useAction<'roll'>();
  const [result, setResult] = useState<TestRollResult | null>(null);
  const seed = parseSeed(props.seedText);

  const roll = () => {
    if (seed === 'invalid') return;
    void run('roll', 'Could not roll', () => testRoll(host, seed)).then((r) => {
      if (r?.ok) setResult(r.value);
    });
  };

  const active = result?.rolls.filter((r) => r.active) ?? [];
  return (
    <section className="card test-roll" aria-labelledby={`${id}-title`} data-testid="test-roll">
      <div className="card__head">
        <div>
          <h2 id={`${id}-title`} className="card__title">
            Test roll
          </h2>
          <p className="card__lead">Preview who would take part: every member with tools rolls 0–100 and takes part when the roll is under its chance. Nothing runs.</p>
        </div>
        <button type="button" className="btn" aria-disabled={busy !== null || seed === 'invalid' || undefined} onClick={roll}>
          <Icon name="refresh" />
          {busy ? 'Rolling…' : 'Test roll'}
        </button>
      </div>
      {result && (
        <div className="test-roll__result" data-testid="roll-result">
          <p className="test-roll__summary" role="status">
            Seed <code data-testid="roll-seed">{result.seed}</code>: {active.length} of {result.rolls.length} {result.rolls.length === 1 ? 'member takes' : 'members take'} part
            {active.length > 0 ? ` (${active.map((r) => r.memberName).join(', ')})` : ''}.
            {result.fallbackUsed && ' Every roll failed, so the at-least-one fallback picked one.'}
            <button type="button" className="link-button" onClick={() => props.onUseSeed(result.seed)}>
              Use this seed for the run
            </button>
          </p>
          {result.rolls.length > 0 ? <RollTable rolls={result.rolls} caption={`Rolls for seed ${result.seed}`} /> : <p className="panel-note">The council has no members.</p>}
        </div>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}

