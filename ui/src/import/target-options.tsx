import { useState } from 'react';
import { Radio } from '../components/choice';
import type { ProjectListing } from '../types';

export type ImportTarget = 'this' | 'new';
export type ExistingEndpoints = 'skip' | 'overwrite' | 'replace';

/** The state of the target choices: this project, skipping existing routes, to start with. */
export function useTargetChoice() {
  const [target, setTarget] = useState<ImportTarget>('this');
  const [existing, setExisting] = useState<ExistingEndpoints>('skip');
  return { target, setTarget, existing, setExisting };
}
export type TargetChoice = ReturnType<typeof useTargetChoice>;

/**
 * Where an import goes (this project, or a new one named from the document) and what becomes of
 * endpoints whose method and path already exist there: the same choices for every import form.
 */
export function TargetOptions(props: {
  id: string;
  project: ProjectListing;
  /** How the new project is named, e.g. "named after the document’s info.title". */
  newName: string;
  choice: TargetChoice;
}) {
  const { id } = props;
  const { target, existing, setTarget, setExisting } = props.choice;
  const existingRadio = (value: ExistingEndpoints, label: string) => (
    <Radio name={`${id}-existing`} checked={existing === value} onSelect={() => setExisting(value)}>
      {label}
    </Radio>
  );
  return (
    <>
      <fieldset className="options">
        <legend>Import into</legend>
        <Radio name={`${id}-target`} checked={target === 'this'} onSelect={() => setTarget('this')}>
          This project ({props.project.name})
        </Radio>
        <Radio name={`${id}-target`} checked={target === 'new'} onSelect={() => setTarget('new')}>
          A new project, {props.newName}
        </Radio>
      </fieldset>
      <fieldset className="options" disabled={target !== 'this'}>
        <legend>Endpoints whose method and path already exist</legend>
        {existingRadio('skip', 'Skip them')}
        {existingRadio(
          'overwrite',
          'Update them from the document, keeping what only mockdev has (hand-made variations and headers, delay, mode, proxy settings, …)',
        )}
        {existingRadio('replace', 'Replace them whole (they keep only their id and name)')}
      </fieldset>
    </>
  );
}
