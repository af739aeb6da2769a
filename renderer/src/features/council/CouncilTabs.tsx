// The council's four tabs (Members, Runs, Packs, Settings), moved between with the arrow keys.
import { TabList } from '../../components/TabList';
import type { CouncilTab } from '../../stores/council/council-slice';

const TABS: ReadonlyArray<{ id: CouncilTab; label: string }> = [
  { id: 'members', label: 'Members' },
  { id: 'runs', label: 'Runs' },
  { id: 'packs', label: 'Packs' },
  { id: 'settings', label: 'Settings' },
];

export function CouncilTabs(props: { tab: CouncilTab; onSelect(tab: CouncilTab): void; idBase: string }) {
  return <TabList tabs={TABS} selected={props.tab} onSelect={props.onSelect} label="Council" className="council-tabs" tabClassName="council-tab" idBase={props.idBase} testIdPrefix="council-tab-" />;
}
