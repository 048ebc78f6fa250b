import { useState, type FormEvent } from 'react';
import { PORT_MAX, PORT_MIN } from '../../../src/core/model/limits';

export interface ProjectFields {
  name: string;
  port?: number;
  description: string;
}

/**
 * The fields of a project (name, port, description) as a form: creating one ("New project", port
 * optional: the API picks the next free one) and editing one in its row.
 */
export function ProjectForm(props: {
  /** Prefixes the inputs' ids (one form per place). */
  idPrefix: string;
  initial?: { name: string; port?: number; description: string };
  submitLabel: string;
  /** Resolves true when saved (the form then clears, when creating). */
  onSubmit: (fields: ProjectFields) => Promise<boolean>;
  onCancel?: () => void;
  /** The port field says what an empty value means. */
  portOptional?: boolean;
}) {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [port, setPort] = useState(props.initial?.port !== undefined ? String(props.initial.port) : '');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const [saving, setSaving] = useState(false);
  const id = (field: string) => `${props.idPrefix}-${field}`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      const fields: ProjectFields = { name: name.trim(), description };
      if (port.trim() !== '') fields.port = Number(port);
      const ok = await props.onSubmit(fields);
      if (ok && !props.initial) {
        setName('');
        setPort('');
        setDescription('');
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="project-form" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id('name')}>
        Name
        <input id={id('name')} value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label htmlFor={id('port')}>
        {props.portOptional ? 'Port (optional)' : 'Port'}
        <input
          id={id('port')}
          type="number"
          min={PORT_MIN}
          max={PORT_MAX}
          value={port}
          placeholder={props.portOptional ? 'next free' : undefined}
          onChange={(e) => setPort(e.target.value)}
          required={!props.portOptional}
        />
      </label>
      <label htmlFor={id('description')} className="project-form-description">
        Description
        <input id={id('description')} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="project-form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
