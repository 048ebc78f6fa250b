import type { ProjectScreenProps } from './registry';

// Placeholder: replaced by the screen's implementation.
export function RecordingsScreen({ project }: ProjectScreenProps) {
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">recordings · {project.name}</h1>
    </section>
  );
}
