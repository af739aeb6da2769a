// A tool's result-cache figures (tools.cacheStats) with Clear cache; nothing at all for tools without a cache.
// Read when shown and again whenever `revision` changes (after Try it).
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { ToolCacheStats } from '../../../../shared/types/safety';
import { useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { cacheStats, clearCache } from '../../stores/safety/safety-commands';
import './safety.css';

function duration(ms: number): string {
  if (ms <= 0) return 'no expiry';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6000) / 10} min`;
}

export function CacheMetrics(props: { qualifiedName: string; revision: number }) {
  const host = useHost();
  const id = useId();
  const [stats, setStats] = useState<ToolCacheStats | null>(null);
  const [error, setError] = useState<{ title: string; error: HostError } | null>(null);
  const [busy, setBusy] = useState<'clear' | 'load' | null>(null);
  const [cleared, setCleared] = useState<number | null>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    const result = await cacheStats(host, props.qualifiedName);
    if (mine !== seq.current) return;
    if (result.ok) {
      setStats(result.value.find((s) => s.qualifiedName === props.qualifiedName) ?? null);
      setError(null);
    } else if (result.error.code !== 'UNKNOWN_METHOD') {
      setError({ title: 'Could not read the cache figures', error: result.error });
    }
  }, [host, props.qualifiedName]);

  useEffect(() => {
    void load();
  }, [load, props.revision]);
  useEffect(() => () => void (seq.current += 1), []);

  if (!stats && !error) return null;

  const clear = async () => {
    if (busy) return;
    setBusy('clear');
    const result = await clearCache(host, props.qualifiedName);
    setBusy(null);
    if (!result.ok) {
      setError({ title: 'Could not clear the cache', error: result.error });
      return;
    }
    setCleared(result.value.cleared);
    await load();
  };

  return (
    <section className="tool-details__section" aria-labelledby={`${id}-title`} data-testid="cache-metrics">
      <h3 id={`${id}-title`}>Result cache</h3>
      {stats && (
        <>
          <dl className="cache-stats">
            <div>
              <dt>Hits</dt>
              <dd data-testid="cache-hits">{stats.hits}</dd>
            </div>
            <div>
              <dt>Misses</dt>
              <dd data-testid="cache-misses">{stats.misses}</dd>
            </div>
            <div>
              <dt>Hit rate</dt>
              <dd data-testid="cache-hit-rate">{stats.hits + stats.misses === 0 ? '—' : `${Math.round(stats.hitRate * 100)}%`}</dd>
            </div>
            <div>
              <dt>Size</dt>
              <dd data-testid="cache-size">
                {stats.size} / {stats.maxEntries}
              </dd>
            </div>
            <div>
              <dt>Evictions</dt>
              <dd data-testid="cache-evictions">{stats.evictions}</dd>
            </div>
            <div>
              <dt>Expired</dt>
              <dd>{stats.expirations}</dd>
            </div>
          </dl>
          <div className="cache-actions">
            <span className="panel-note">Successful results are kept for {duration(stats.ttlMs)}.</span>
            <button type="button" className="btn btn--small" aria-disabled={busy !== null || stats.size === 0 || undefined} onClick={() => stats.size > 0 && void clear()} data-testid="cache-clear">
              <Icon name="trash" />
              {busy === 'clear' ? 'Clearing…' : 'Clear cache'}
            </button>
            <button type="button" className="btn btn--small btn--ghost" aria-label="Refresh the cache figures" onClick={() => void load()}>
              <Icon name="refresh" />
            </button>
            <span role="status" className="panel-note">
              {cleared !== null ? `Cleared ${cleared} ${cleared === 1 ? 'entry' : 'entries'}.` : ''}
            </span>
          </div>
        </>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}
