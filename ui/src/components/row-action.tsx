/**
 * A button of a list row that acts on the row's item: its text is the verb, its accessible name
 * the verb and the item (`Delete Dev`), so a screen reader tells the rows' buttons apart.
 */
export function RowAction(props: {
  verb: string;
  item: string;
  onClick: () => unknown;
  disabled?: boolean;
  danger?: boolean;
  title?: string;
}) {
  return (
    <button
      type="button"
      disabled={props.disabled}
      className={props.danger ? 'danger' : undefined}
      aria-label={`${props.verb} ${props.item}`}
      title={props.title}
      onClick={() => void props.onClick()}
    >
      {props.verb}
    </button>
  );
}
