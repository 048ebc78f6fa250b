import { useEffect, useId, useState, type ReactNode } from 'react';
import { describeError } from '../components/notices';

/** One setting's save: resolves, or rejects with the API's error (shown next to the field). */
export type Save = (value: unknown) => Promise<void>;

/**
 * What became of a setting's last save, beside it: the refusal (the API's words), or "Saved" (a
 * status: said by a screen reader, seen where the change was made however far down it is).
 */
function FieldFeedback({ id, error, saved }: { id: string; error: unknown; saved: boolean }) {
  if (!error)
    return (
      <span className="setting-saved" role="status">
        {saved ? 'Saved' : ''}
      </span>
    );
  const { title, detail } = describeError(error);
  return (
    <span id={id} className="field-error" role="alert">
      {detail ?? title}
    </span>
  );
}

/**
 * Saves on every change. The control shows the value chosen at once (`pending`) while it is
 * saved; a refused value goes back to the saved one, with the error next to the field.
 */
function useSaver<T>(save: Save) {
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState<{ value: T }>();
  const run = async (value: T): Promise<boolean> => {
    setPending({ value });
    setSaved(false);
    try {
      await save(value);
      setError(undefined);
      setSaved(true);
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setPending(undefined);
    }
  };
  return { error, saved, pending, run };
}

export function CheckboxField(props: { label: string; hint?: ReactNode; value: boolean; save: Save }) {
  const errId = useId();
  const { error, saved, pending, run } = useSaver<boolean>(props.save);
  return (
    <div className="setting">
      <label className="inline">
        <input
          type="checkbox"
          checked={pending ? pending.value : props.value}
          aria-describedby={error ? errId : undefined}
          onChange={(e) => void run(e.target.checked)}
        />
        {props.label}
      </label>
      {props.hint && <div className="hint">{props.hint}</div>}
      <FieldFeedback id={errId} error={error} saved={saved} />
    </div>
  );
}

export function SelectField(props: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  save: Save;
}) {
  const errId = useId();
  const { error, saved, pending, run } = useSaver<string>(props.save);
  return (
    <div className="setting">
      <label>
        {props.label}
        <select
          value={pending ? pending.value : props.value}
          aria-describedby={error ? errId : undefined}
          onChange={(e) => void run(e.target.value)}
        >
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <FieldFeedback id={errId} error={error} saved={saved} />
    </div>
  );
}

/**
 * A number or text setting: edited freely, saved on Enter or when the field is left (if it
 * changed). A number field sends what was typed as a number (or the text when it is not one, so
 * the API names what is wrong); an empty text field sends `emptyAs`.
 */
export function InputField(props: {
  label: string;
  hint?: ReactNode;
  kind: 'number' | 'text';
  value: number | string | null;
  emptyAs?: null;
  save: Save;
}) {
  const errId = useId();
  const shown = props.value === null ? '' : String(props.value);
  const [text, setText] = useState(shown);
  const { error, saved, pending, run } = useSaver<unknown>(props.save);
  useEffect(() => setText(shown), [shown]);
  const commit = () => {
    if (text === shown && !error) return;
    let value: unknown = text;
    if (props.kind === 'number')
      value = text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    else if (text.trim() === '' && props.emptyAs === null) value = null;
    void run(value);
  };
  return (
    <div className="setting">
      <label>
        {props.label}
        <input
          type={props.kind === 'number' ? 'number' : 'text'}
          inputMode={props.kind === 'number' ? 'numeric' : undefined}
          value={text}
          readOnly={pending !== undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errId : undefined}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
      </label>
      {props.hint && <div className="hint">{props.hint}</div>}
      <FieldFeedback id={errId} error={error} saved={saved} />
    </div>
  );
}

/** A choice of a few values as a radio group (a fieldset with its legend). */
export function RadioField(props: {
  legend: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  save: Save;
}) {
  const errId = useId();
  const { error, saved, pending, run } = useSaver<string>(props.save);
  const shown = pending ? pending.value : props.value;
  return (
    <div className="setting">
      <fieldset aria-describedby={error ? errId : undefined}>
        <legend>{props.legend}</legend>
        {props.options.map((o) => (
          <label className="inline" key={o.value}>
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={shown === o.value}
              onChange={() => void run(o.value)}
            />
            {o.label}
          </label>
        ))}
      </fieldset>
      <FieldFeedback id={errId} error={error} saved={saved} />
    </div>
  );
}
