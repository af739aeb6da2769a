// Extensions' input bar actions (ctx.ui.registerInputBarAction): buttons beside the message box.
import { useShallow } from 'zustand/react/shallow';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { ExtensionIcon } from './icon';

export function ComposerActions() {
  const { brokers } = useFrontends();
  const actions = useFrontendsStore(useShallow((s) => s.actions.filter((a) => a.enabled !== false)));
  if (actions.length === 0) return null;
  return (
    <div className="composer__ext-actions" role="group" aria-label="Extension actions">
      {actions.map((action) => (
        <button
          key={`${action.extensionId}/${action.actionId}`}
          type="button"
          className="btn btn--small"
          title={action.subtitle ?? action.label}
          data-extension-id={action.extensionId}
          onClick={() => brokers.get(action.extensionId)?.notify('inputAction', { actionId: action.actionId })}
        >
          <ExtensionIcon svg={action.iconSvg} />
          {action.label}
        </button>
      ))}
    </div>
  );
}
