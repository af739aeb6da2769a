// The Runs tab: Test roll (who would take part, and why), a quick Run with Abort and Retry failed, the open run's
// timeline and deliberation block, and the stored runs to open again or export as a JSON Lines trace.
import { useState } from 'react';
import type { CouncilView } from '../../../../shared/types/council';
import { useAppStore } from '../../app/context';
import { TestRoll } from './TestRoll';
import { OpenRun } from './OpenRun';
import { RunCard } from './RunCard';
import { PastRuns } from './PastRuns';

export function RunsTab(props: { view: CouncilView }) {
  const [seedText, setSeedText] = useState('');
  const trace = useAppStore((s) => (s.runs.openId !== null && Object.prototype.hasOwnProperty.call(s.runs.traces, s.runs.openId) ? s.runs.traces[s.runs.openId]! : null));
  return (
    <div className="panel-stack">
      <TestRoll seedText={seedText} onUseSeed={(seed) => setSeedText(String(seed))} />
      <RunCard view={props.view} seedText={seedText} setSeedText={setSeedText} />
      {trace && <OpenRun trace={trace} />}
      <PastRuns />
    </div>
  );
}

