// Placeholder: replaced by the screen's implementation.
export function ProjectsScreen() {
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">projects</h1>
    </section>
  );
}
