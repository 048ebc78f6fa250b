import type { Command } from 'commander';
import { MockdevError } from '../../core/errors.js';
import { examples } from '../help.js';
import { printText } from '../output.js';

interface Node {
  path: string[];
  subcommands: string[];
  options: string[];
}

function walk(cmd: Command, path: string[], out: Node[]): void {
  out.push({
    path,
    subcommands: cmd.commands.map((c) => c.name()),
    options: cmd.options
      .flatMap((o) => [o.short, o.long].filter((x): x is string => Boolean(x)))
      .concat('--help'),
  });
  for (const sub of cmd.commands) walk(sub, [...path, sub.name()], out);
}

/** A bash completion script generated from the command tree, so it never goes stale. */
export function bashCompletion(root: Command): string {
  const nodes: Node[] = [];
  walk(root, [], nodes);
  const cases = nodes
    .map((n) => `    "${n.path.join(' ')}") words="${[...n.subcommands, ...n.options].join(' ')}" ;;`)
    .join('\n');
  return `# mockdev bash completion. Install: mockdev completion bash > /etc/bash_completion.d/mockdev
_mockdev() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" key="" i w words
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    case "\${key:+$key }$w" in
${nodes
  .map((n) => n.path.join(' '))
  .filter(Boolean)
  .map((p) => `      "${p}") key="${p}" ;;`)
  .join('\n')}
    esac
  done
  case "$key" in
${cases}
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _mockdev mockdev
`;
}

export function zshCompletion(root: Command): string {
  return `#compdef mockdev
# mockdev zsh completion. Install: mockdev completion zsh > "\${fpath[1]}/_mockdev"
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(root)}`;
}

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash or zsh)')
    .argument('<SHELL>', 'bash or zsh')
    .addHelpText(
      'after',
      examples(
        'mockdev completion bash > ~/.local/share/bash-completion/completions/mockdev',
        'source <(mockdev completion zsh)',
      ),
    )
    .action((shell: string) => {
      if (shell !== 'bash' && shell !== 'zsh') {
        throw new MockdevError('INVALID_ARGUMENT', `Unsupported shell "${shell}": use bash or zsh`);
      }
      printText(shell === 'bash' ? bashCompletion(program) : zshCompletion(program));
    });
}
