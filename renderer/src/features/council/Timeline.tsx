// The run timeline picture: an SVG with one lane per member, a bar per tool call (start offset → duration, coloured by
// status), the deadline, a time axis; bars are focusable and open their details. Tool output is only ever shown as text.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useAppStore } from '../../app/context';
import type { RunTrace } from '../../stores/council/runs-slice';
import { CallDetail } from './CallDetail';
import { callsOf, lanesOf, STATUS_GLYPHS, STATUS_HELP, STATUS_LABELS, type TimelineCall } from './run-model';
import { type BarLayout, type BarStatus, DEFAULT_TIMELINE_OPTIONS, formatDuration, layoutTimeline, tipPosition } from './timeline-geometry';
import { useRunClock, type NowFn } from './use-run-clock';
import { TimelineLaneLabel } from './TimelineLaneLabel';
import { useWidth } from './use-width';

const LEGEND: BarStatus[] = ['ok', 'error', 'timeout', 'cancelled', 'missing', 'running'];

function barLabel(bar: BarLayout): string {
  const status = STATUS_LABELS[bar.status];
  const time = bar.status === 'running' ? `running for ${formatDuration(bar.endMs - bar.startMs)}` : `${formatDuration(bar.durationMs)}`;
  const code = bar.status !== 'running' && bar.status !== 'ok' && (bar as TimelineCall).result?.errorCode ? `, ${(bar as TimelineCall).result!.errorCode}` : '';
  return `${bar.memberName}, ${bar.toolDisplayName}: ${status}${code}, started at ${formatDuration(bar.startMs)}, ${time}`;
}

export function Timeline(props: { trace: RunTrace; now?: NowFn }) {
  const { trace } = props;
  const uid = useId().replace(/[^A-Za-z0-9]/g, '');
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useWidth(wrapRef);
  const members = useAppStore((s) => s.council.view?.members);
  const memberById = useMemo(() => new Map((members ?? []).map((m) => [m.id, m])), [members]);
  const [scale, setScale] = useState<'fit' | 'deadline'>('fit');
  const [selected, setSelected] = useState<string | null>(null);
  const [hovered, setHovered] = useState<string | null>(null);
  const barRefs = useRef(new Map<string, SVGGElement>());

  const running = trace.run === null;
  const elapsed = useRunClock(running, trace.startedAt, trace.timeoutMs + 1000, props.now);
  const nowMs = running ? elapsed : (trace.run?.totalDurationMs ?? 0);
  const calls = useMemo(() => callsOf(trace), [trace]);
  const lanes = useMemo(() => lanesOf(trace), [trace]);
  const layout = useMemo(
    () => layoutTimeline(lanes, calls, { ...DEFAULT_TIMELINE_OPTIONS, width, scale, deadlineMs: trace.timeoutMs, nowMs }),
    [lanes, calls, width, scale, trace.timeoutMs, nowMs],
  );
  const bars = layout.bars as Array<BarLayout & TimelineCall>;
  const selectedBar = bars.find((b) => b.key === selected) ?? null;
  const tipBar = bars.find((b) => b.key === (hovered ?? selected)) ?? null;
  const hasSimulated = bars.some((b) => b.simulated);
  const hasUnvalidated = bars.some((b) => b.unvalidated);
  const hasUnplanned = bars.some((b) => b.unplanned);

  // A different run starts with nothing selected.
  useEffect(() => {
    setSelected(null);
    setHovered(null);
  }, [trace.id]);

  const focusBar = (index: number) => {
    const bar = bars[Math.max(0, Math.min(bars.length - 1, index))];
    if (bar) barRefs.current.get(bar.key)?.focus();
  };
  const onBarKey = (event: KeyboardEvent<SVGGElement>, index: number, key: string) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: bars.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      focusBar(moves[event.key]!);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      setSelected(key);
      document.getElementById(`${uid}-detail`)?.focus();
    } else if (event.key === 'Escape') {
      setSelected(null);
    }
  };

  const { plot } = layout;
  const total = calls.length;
  const summary = `Timeline of run ${trace.id}: ${layout.lanes.length} ${layout.lanes.length === 1 ? 'member' : 'members'}, ${total} tool ${total === 1 ? 'call' : 'calls'}; axis 0 to ${formatDuration(layout.domainMs)}; deadline ${formatDuration(trace.timeoutMs)}.`;

  return (
    <div className="timeline" data-testid="timeline" data-run-id={trace.id}>
      <div className="timeline__toolbar">
        <ul className="timeline__legend" aria-label="Legend">
          {LEGEND.filter((s) => s !== 'running' || running || bars.some((b) => b.status === 'running')).map((s) => (
            <li key={s} className="legend-item" title={STATUS_HELP[s]}>
              <span className={`legend-swatch tl-fill--${s}`} aria-hidden="true">
                {STATUS_GLYPHS[s]}
              </span>
              {STATUS_LABELS[s]}
            </li>
          ))}
          <li className="legend-item" title="The council deadline (timeout): tools still running then end as timed out.">
            <span className="legend-deadline" aria-hidden="true" />
            Deadline
          </li>
          {hasSimulated && (
            <li className="legend-item" title="The tool described what it would do instead of doing it.">
              <span className="legend-marker" aria-hidden="true">
                S
              </span>
              Simulated
            </li>
          )}
          {hasUnvalidated && (
            <li className="legend-item" title="A simulated placeholder nobody checked.">
              <span className="legend-marker legend-marker--u" aria-hidden="true">
                U
              </span>
              Unvalidated
            </li>
          )}
          {hasUnplanned && (
            <li className="legend-item" title="Called without planned arguments, as Lumiverse calls council tools (context and deadline only).">
              <span className="legend-marker" aria-hidden="true">
                P
              </span>
              Unplanned
            </li>
          )}
        </ul>
        <div className="timeline__scale" role="group" aria-label="Time axis">
          <button type="button" className="btn btn--small" aria-pressed={scale === 'fit'} onClick={() => setScale('fit')}>
            Fit calls
          </button>
          <button type="button" className="btn btn--small" aria-pressed={scale === 'deadline'} onClick={() => setScale('deadline')}>
            Up to deadline
          </button>
        </div>
      </div>

      <div className="timeline__canvas" ref={wrapRef}>
        <svg
          className="timeline__svg"
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="group"
          aria-label={summary}
          data-testid="timeline-svg"
          data-domain-ms={layout.domainMs}
        >
          <defs>
            <clipPath id={`${uid}-clip`} clipPathUnits="objectBoundingBox">
              <circle cx="0.5" cy="0.5" r="0.5" />
            </clipPath>
            <pattern id={`${uid}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width="6" height="6" className="tl-hatch-bg" />
              <line x1="0" y1="0" x2="0" y2="6" className="tl-hatch-line" />
            </pattern>
          </defs>

          {layout.lanes.map((lane) => (
            <rect key={`bg-${lane.memberId}`} className={`tl-lane-bg${lane.index % 2 ? ' tl-lane-bg--alt' : ''}`} x={0} y={lane.y} width={layout.width} height={lane.height} />
          ))}

          <g className="tl-grid" aria-hidden="true">
            {layout.ticks.map((t) => (
              <line key={`grid-${t.ms}`} x1={t.x} x2={t.x} y1={plot.y0} y2={plot.y1} />
            ))}
          </g>
          <g className="tl-axis" aria-hidden="true">
            <line x1={plot.x0} x2={plot.x1} y1={plot.y0} y2={plot.y0} className="tl-axis__line" />
            {layout.ticks.map((t, i) => (
              <g key={`tick-${t.ms}`}>
                <line x1={t.x} x2={t.x} y1={plot.y0 - 4} y2={plot.y0} className="tl-axis__line" />
                <text x={t.x} y={plot.y0 - 8} textAnchor={i === 0 ? 'start' : i === layout.ticks.length - 1 ? 'end' : 'middle'} className="tl-axis__label" data-testid="timeline-tick">
                  {t.label}
                </text>
              </g>
            ))}
          </g>

          <g aria-hidden="true">
            {layout.lanes.map((lane) => (
              <TimelineLaneLabel key={`label-${lane.memberId}`} lane={lane} member={memberById.get(lane.memberId)} clipId={`${uid}-clip`} rowHeight={DEFAULT_TIMELINE_OPTIONS.rowHeight} />
            ))}
            {layout.lanes
              .filter((l) => l.note)
              .map((lane) => (
                <text key={`note-${lane.memberId}`} className="tl-lane-note" x={plot.x0 + 8} y={lane.y + lane.height / 2} dy="0.35em">
                  {lane.note}
                </text>
              ))}
          </g>

          <g className="tl-bars">
            {bars.map((bar, index) => {
              // A generous estimate of the label width (11.5 px, semi-bold), so an inside label never spills out of its bar.
              const textWidth = bar.toolDisplayName.length * 7.4;
              // The tool name goes inside the bar when it fits, else to its right, else to its left.
              const inside = bar.width >= textWidth + 26;
              const roomRight = plot.x1 - (bar.x + bar.width) > textWidth + 10;
              const roomLeft = bar.x - plot.x0 > textWidth + 10;
              const labelX = inside ? bar.x + 18 : roomRight ? bar.x + bar.width + 6 : bar.x - 6;
              const labelAnchor = inside || roomRight ? 'start' : 'end';
              return (
                <g
                  key={bar.key}
                  ref={(el) => {
                    if (el) barRefs.current.set(bar.key, el);
                    else barRefs.current.delete(bar.key);
                  }}
                  className={`tl-bar tl-bar--${bar.status}${selected === bar.key ? ' tl-bar--selected' : ''}`}
                  tabIndex={0}
                  role="button"
                  aria-label={barLabel(bar)}
                  aria-pressed={selected === bar.key}
                  data-testid="timeline-bar"
                  data-status={bar.status}
                  data-member-id={bar.memberId}
                  data-tool={bar.toolName}
                  data-x={bar.x.toFixed(1)}
                  data-width={bar.width.toFixed(1)}
                  onClick={() => setSelected(bar.key)}
                  onFocus={() => setSelected(bar.key)}
                  onMouseEnter={() => setHovered(bar.key)}
                  onMouseLeave={() => setHovered((h) => (h === bar.key ? null : h))}
                  onKeyDown={(e) => onBarKey(e, index, bar.key)}
                >
                  <rect
                    className={`tl-bar__rect tl-fill--${bar.status}`}
                    x={bar.x}
                    y={bar.y}
                    width={bar.width}
                    height={bar.height}
                    rx={3}
                    {...(bar.status === 'missing' ? { fill: `url(#${uid}-hatch)` } : {})}
                  />
                  {bar.width >= 16 && (
                    <text className="tl-bar__glyph" x={bar.x + 9} y={bar.y + bar.height / 2} dy="0.35em" textAnchor="middle" aria-hidden="true">
                      {STATUS_GLYPHS[bar.status]}
                    </text>
                  )}
                  {inside ? (
                    // A nested viewport clips the label to its bar, whatever the font's real widths.
                    <svg x={bar.x} y={bar.y} width={bar.width} height={bar.height} overflow="hidden" aria-hidden="true">
                      <text className="tl-bar__label tl-bar__label--inside" x={labelX - bar.x} y={bar.height / 2} dy="0.35em">
                        {bar.toolDisplayName}
                      </text>
                    </svg>
                  ) : (
                    (roomRight || roomLeft) && (
                      <text className="tl-bar__label" x={labelX} y={bar.y + bar.height / 2} dy="0.35em" textAnchor={labelAnchor} aria-hidden="true">
                        {bar.toolDisplayName}
                      </text>
                    )
                  )}
                  {bar.simulated && (
                    <text className="tl-marker" x={bar.x} y={bar.y - 2} aria-hidden="true">
                      S
                    </text>
                  )}
                  {bar.unvalidated && (
                    <text className="tl-marker tl-marker--u" x={bar.x + 9} y={bar.y - 2} aria-hidden="true">
                      U
                    </text>
                  )}
                  {bar.unplanned && (
                    <text className="tl-marker" x={bar.x + (bar.unvalidated ? 18 : bar.simulated ? 9 : 0)} y={bar.y - 2} aria-hidden="true" data-testid="tl-unplanned">
                      P
                    </text>
                  )}
                </g>
              );
            })}
          </g>

          {running && (
            <line className="tl-now" x1={plot.x0 + (Math.min(nowMs, layout.domainMs) / layout.domainMs) * (plot.x1 - plot.x0)} x2={plot.x0 + (Math.min(nowMs, layout.domainMs) / layout.domainMs) * (plot.x1 - plot.x0)} y1={plot.y0} y2={plot.y1} aria-hidden="true" />
          )}

          {layout.deadline.visible ? (
            <g className="tl-deadline" data-testid="timeline-deadline" data-ms={trace.timeoutMs} aria-hidden="true">
              <line x1={layout.deadline.x} x2={layout.deadline.x} y1={plot.y0 - 2} y2={plot.y1} />
              <text x={layout.deadline.x - 4} y={plot.y1 - 6} textAnchor="end">
                deadline {formatDuration(trace.timeoutMs)}
              </text>
            </g>
          ) : (
            <text className="tl-deadline-off" x={plot.x1} y={plot.y1 - 6} textAnchor="end" data-testid="timeline-deadline-off" aria-hidden="true">
              deadline {formatDuration(trace.timeoutMs)} →
            </text>
          )}
        </svg>
        {tipBar && hovered !== null && (
          <div
            className="timeline__tip"
            role="presentation"
            aria-hidden="true"
            style={tipPosition(tipBar, layout)}
          >
            <strong>{tipBar.memberName}</strong> · {tipBar.toolDisplayName}
            <br />
            {STATUS_LABELS[tipBar.status]} · {tipBar.status === 'running' ? `${formatDuration(tipBar.endMs - tipBar.startMs)} so far` : formatDuration(tipBar.durationMs)}
            {tipBar.result?.errorCode && <> · {tipBar.result.errorCode}</>}
          </div>
        )}
      </div>
      {calls.length === 0 && (
        <p className="timeline__empty panel-note" data-testid="timeline-empty">
          {running ? 'Starting…' : trace.run?.status === 'inline' ? 'Inline mode: nothing runs before the reply.' : 'No tool ran in this run.'}
        </p>
      )}

      <div id={`${uid}-detail`} tabIndex={-1} className="timeline__detail-wrap">
        {selectedBar ? (
          <CallDetail call={selectedBar} onClose={() => setSelected(null)} />
        ) : (
          calls.length > 0 && <p className="panel-note timeline__hint">Select a bar (click, or Tab to it) to see the member, tool, status, timing, error and output.</p>
        )}
      </div>
    </div>
  );
}
