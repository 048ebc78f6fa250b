import type { ReactNode } from 'react';

/** A checkbox with its label after it, on one line. */
export function Checkbox(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <label className="inline">
      <input
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.children}
    </label>
  );
}

/** One radio button of a group (the buttons sharing `name`), its label after it, on one line. */
export function Radio(props: { name: string; checked: boolean; onSelect: () => void; children: ReactNode }) {
  return (
    <label className="inline">
      <input type="radio" name={props.name} checked={props.checked} onChange={props.onSelect} />
      {props.children}
    </label>
  );
}
