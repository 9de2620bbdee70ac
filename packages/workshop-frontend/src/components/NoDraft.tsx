import { TEMPLATES } from "../drafts/templates.ts";

/** The editor's place when no draft is open: what a gadget is, and the templates to start from. */
export function NoDraft({ onTemplate }: { onTemplate(templateId: string): void }) {
  return (
    <div className="m-auto max-w-sm space-y-3 p-6 text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-draft">
      <p>
        A <strong>gadget</strong> is a small TypeScript agent: <code>export default {"{ run(payload, env) }"}</code>.
        Open a draft on the left, or start from a template:
      </p>
      <div className="flex flex-wrap gap-2">
        {TEMPLATES.map((template) => (
          <button
            key={template.id}
            type="button"
            title={template.description}
            className="rounded border border-zinc-300 px-2 py-1 hover:border-sky-500 dark:border-zinc-700"
            onClick={() => onTemplate(template.id)}
          >
            {template.title}
          </button>
        ))}
      </div>
      <p>Then press Ctrl+Enter to run it. Help has the contract; ? lists the shortcuts.</p>
    </div>
  );
}
