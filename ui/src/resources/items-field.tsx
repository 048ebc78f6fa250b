import { BodyField } from '../editor/body-field';
import { shapeProblem } from './resource-model';

/**
 * A resource's items (its seed, or its current data) as one JSON document, in the endpoint
 * editor's body field (CodeMirror, lazily loaded; checked as JSON as you type, Format): a text
 * that is JSON but not an array of objects says so in place, as does the API's own refusal.
 */
export function ItemsField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  apiProblem?: unknown;
  rows?: number;
}) {
  const shape = shapeProblem(props.value);
  return (
    <BodyField
      label={props.label}
      value={props.value}
      onChange={props.onChange}
      contentType="application/json"
      apiProblem={shape ? new Error(shape) : props.apiProblem}
      rows={props.rows ?? 8}
    />
  );
}
