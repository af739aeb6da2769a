// One tool's details: description, flags, parameters, cache metrics, Try it and Copy as.
import { useMemo, useState } from 'react';
import type { ToolInfo } from '../../../../shared/types/tools';
import { Icon } from '../../components/Icon';
import { CacheMetrics } from '../safety/CacheMetrics';
import { CopyAs } from './CopyAs';
import { SOURCE_LABELS } from './filter-tools';
import { TryIt } from './TryIt';
import { ToolBadges } from './ToolBadges';

/** The yes/no facts shown for every tool, with what each answer means. */
const FLAGS: ReadonlyArray<{ key: 'councilEligible' | 'inlineAvailable' | 'hasSimulate' | 'requiresApproval'; label: string; yes: string; no: string }> = [
  { key: 'councilEligible', label: 'Council eligible', yes: 'Council members may be given this tool.', no: 'Council members cannot be given this tool.' },
  {
    key: 'inlineAvailable',
    label: 'Inline available',
    yes: 'Its author marks it as callable by a chat model directly. In inline mode the chat offers it through the council members who hold it.',
    no: 'Not marked for direct use; in inline mode the chat still offers it through the council members who hold it, like every member tool.',
  },
  { key: 'hasSimulate', label: 'Has simulate', yes: 'It can describe what it would do without doing it.', no: 'A dry run returns a placeholder instead of asking it.' },
  { key: 'requiresApproval', label: 'Requires approval', yes: 'A person confirms each call first.', no: 'It asks first only when the Safety write policy says so.' },
];

/** A yes/no fact about the tool, with what that answer means (each answer has its own sentence). */
function Flag(props: { label: string; value: boolean; yes: string; no: string }) {
  return (
    <div className="flag">
      <dt>{props.label}</dt>
      <dd>
        <span className={`flag__value flag__value--${props.value ? 'yes' : 'no'}`}>{props.value ? 'Yes' : 'No'}</span>
        <span className="flag__help">{props.value ? props.yes : props.no}</span>
      </dd>
    </div>
  );
}

export function ToolDetails(props: { tool: ToolInfo; extensionName: string | null }) {
  const { tool } = props;
  const schemaText = useMemo(() => JSON.stringify(tool.parameters, null, 2), [tool.parameters]);
  // Bumped after each Try it, so the cache figures are read again.
  const [tries, setTries] = useState(0);
  return (
    <article className="tool-details" aria-labelledby="tool-details-title" data-testid="tool-details">
      <header className="tool-details__header">
        <h2 id="tool-details-title" className="tool-details__title">
          {tool.displayName}
        </h2>
        <code className="tool-details__qname">{tool.qualifiedName}</code>
        <ToolBadges tool={tool} />
      </header>
      {tool.description ? <p className="tool-details__description">{tool.description}</p> : <p className="panel-note">No description.</p>}
      {tool.status === 'unavailable' && (
        <p className="note-line tool-details__note">
          <Icon name="warning" /> Unavailable: its {tool.source === 'extension' ? 'extension is not running' : 'source is not connected'}. Calls fail until it is back.
        </p>
      )}

      <dl className="flags">
        {FLAGS.map((flag) => (
          <Flag key={flag.key} label={flag.label} value={tool[flag.key]} yes={flag.yes} no={flag.no} />
        ))}
      </dl>
      <section className="tool-details__section" aria-labelledby="tool-try-title">
        <h3 id="tool-try-title">Try it</h3>
        <TryIt key={`${tool.qualifiedName}\u0000${tool.definitionHash}`} tool={tool} onRan={() => setTries((n) => n + 1)} />
      </section>
      <CacheMetrics key={tool.qualifiedName} qualifiedName={tool.qualifiedName} revision={tries} />
      <section className="tool-details__section" aria-labelledby="tool-params-title">
        <h3 id="tool-params-title">Parameters</h3>
        <pre className="code-block" tabIndex={0} aria-label="Parameters JSON Schema" data-testid="tool-schema">
          {schemaText}
        </pre>
      </section>
      <section className="tool-details__section" aria-labelledby="tool-copy-title">
        <h3 id="tool-copy-title">Copy as</h3>
        <CopyAs key={tool.qualifiedName} tool={tool} />
      </section>
      <section className="tool-details__section" aria-labelledby="tool-meta-title">
        <h3 id="tool-meta-title">Identity</h3>
        <dl className="meta">
          <div>
            <dt>Source</dt>
            <dd>
              {SOURCE_LABELS[tool.source]}
              {tool.extensionId && (
                <>
                  {' · '}
                  {props.extensionName ?? tool.extensionId} <code>{tool.extensionId}</code>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Provider name</dt>
            <dd>
              <code>{tool.alias}</code>
            </dd>
          </div>
          <div>
            <dt>Definition hash</dt>
            <dd>
              <code className="meta__hash" data-testid="definition-hash">
                {tool.definitionHash}
              </code>
            </dd>
          </div>
        </dl>
      </section>
    </article>
  );
}
