import { useNotify } from './notices';

/**
 * Copies `text` to the clipboard; its accessible name says what (`Copy the public URL`), and a
 * notice says it was copied (or why it could not be).
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      notify.info(`Copied ${what}`);
    } catch (e) {
      notify.error(e, `Could not copy ${what}`);
    }
  };
  return (
    <button type="button" className="copy-button" aria-label={`Copy ${what}`} onClick={() => void copy()}>
      Copy
    </button>
  );
}

/** A command to run, as a code block, with its copy button (`what` names it for the button). */
export function CommandLine({ command, what }: { command: string; what: string }) {
  return (
    <div className="command-line">
      <pre>
        <code>{command}</code>
      </pre>
      <CopyButton text={command} what={what} />
    </div>
  );
}
