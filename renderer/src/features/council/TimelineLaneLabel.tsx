// A timeline lane's label in the SVG: the member's avatar (or initials) and name, shortened to fit.
import type { MemberView } from '../../../../shared/types/council';
import { initialsOf, useAvatar } from './Avatar';
import type { LaneLayout } from './timeline-geometry';

function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(1, maxChars - 1))}…`;
}

export function TimelineLaneLabel(props: { lane: LaneLayout; member: MemberView | undefined; clipId: string; rowHeight: number }) {
  const { lane, member } = props;
  const url = useAvatar(member?.packId ?? '', member?.itemId ?? '', member ? member.avatarUrl !== null : false);
  const size = 22;
  const cx = 8 + size / 2;
  const cy = lane.y + Math.min(lane.height, props.rowHeight + 14) / 2;
  return (
    <g className={`tl-lane-label${lane.active ? '' : ' tl-lane-label--out'}`}>
      <title>{lane.memberName}</title>
      {url ? (
        <image href={url} x={cx - size / 2} y={cy - size / 2} width={size} height={size} clipPath={`url(#${props.clipId})`} preserveAspectRatio="xMidYMid slice" />
      ) : (
        <>
          <circle className="tl-initials" cx={cx} cy={cy} r={size / 2} />
          <text className="tl-initials__text" x={cx} y={cy} dy="0.35em" textAnchor="middle">
            {initialsOf(lane.memberName)}
          </text>
        </>
      )}
      <text className="tl-lane-name" x={cx + size / 2 + 8} y={cy} dy="0.35em">
        {truncate(lane.memberName, 17)}
      </text>
    </g>
  );
}
