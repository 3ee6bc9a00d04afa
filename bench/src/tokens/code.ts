/** Source code for the corpus, in six languages: functions of statements drawn at random. */
import { camelCase, snakeCase } from './names.js';
import { englishSentence } from './prose.js';
import type { Random } from './random.js';
import { identifierParts } from './vocabulary.js';

/** How one language writes a function: its first line, the statements inside, its last lines. */
interface CodeLanguage {
  header(random: Random): string;
  statements: readonly ((random: Random, variable: string) => string)[];
  /** One level of indentation. */
  indent: string;
  footer: string;
  /** Names of variables: camelCase or snake_case. */
  name(random: Random, parts: number): string;
}

const comment = (random: Random) => englishSentence(random).slice(0, random.integer(20, 90));

export const codeLanguages = {
  typescript: {
    header: (random) =>
      `export ${random.chance(0.3) ? 'async ' : ''}function ${camelCase(random, random.integer(2, 4))}(${camelCase(random, 1)}: ${random.pick(['string', 'number', 'Message[]', 'Record<string, unknown>'])}): ${random.pick(['void', 'number', 'Promise<Result>', 'boolean'])} {`,
    statements: [
      (random, variable) =>
        `const ${variable} = ${camelCase(random, 2)}(${camelCase(random, 1)}, ${random.integer(0, 4096)});`,
      (random, variable) =>
        `if (${variable} === undefined || ${variable}.length > ${random.integer(1, 100)}) return ${random.pick(['null', 'false', '0', "''"])};`,
      (random, variable) =>
        `for (let index = 0; index < ${variable}.length; index++) total += ${variable}[index]!.${camelCase(random, 1)};`,
      (random) => `// ${comment(random)}`,
      (random) =>
        `throw new ${random.pick(['TypeError', 'RangeError', 'InvalidOptionsError'])}(\`${comment(random)}\`);`,
      (random, variable) =>
        `await this.${camelCase(random, 2)}({ ${camelCase(random, 1)}: ${variable}, ${camelCase(random, 1)}: ${random.chance(0.5)} });`,
      (random, variable) =>
        `${variable}.push(...${camelCase(random, 2)}.filter((item) => item.${camelCase(random, 1)} !== '${random.pick(identifierParts)}'));`,
    ],
    indent: '  ',
    footer: '}',
    name: camelCase,
  },
  python: {
    header: (random) =>
      `def ${snakeCase(random, random.integer(2, 4))}(self, ${snakeCase(random, 2)}: ${random.pick(['str', 'int', 'list[str]', 'dict[str, Any]'])} = None) -> ${random.pick(['None', 'bool', 'int', 'str'])}:`,
    statements: [
      (random, variable) =>
        `${variable} = self.${snakeCase(random, 2)}(${snakeCase(random, 1)}, timeout=${random.integer(1, 120)})`,
      (random, variable) =>
        `if not ${variable}:\n        raise ValueError(f"${comment(random)} {${variable}!r}")`,
      (random, variable) => `for ${snakeCase(random, 1)} in ${variable}.items():`,
      (random) => `# ${comment(random)}`,
      (random, variable) => `assert ${variable} == ${random.integer(0, 999)}, "${snakeCase(random, 2)}"`,
      (random, variable) => `return [item.strip() for item in ${variable} if item.${snakeCase(random, 1)}]`,
    ],
    indent: '    ',
    footer: '',
    name: snakeCase,
  },
  go: {
    header: (random) =>
      `func (s *${random.pick(['Server', 'Store', 'Parser'])}) ${capitalized(camelCase(random, 2))}(ctx context.Context, ${camelCase(random, 1)} ${random.pick(['string', 'int64', '[]byte'])}) error {`,
    statements: [
      (random) =>
        `if err := s.${camelCase(random, 2)}(ctx); err != nil {\n\t\treturn fmt.Errorf("${random.pick(identifierParts)}: %w", err)\n\t}`,
      (random, variable) => `${variable} := make(map[string]int, ${random.integer(1, 64)})`,
      () => 'defer s.mu.Unlock()',
      (_random, variable) => `log.Printf("%s took %v", ${variable}, time.Since(start))`,
      (random) => `// ${comment(random)}`,
    ],
    indent: '\t',
    footer: '\treturn nil\n}',
    name: camelCase,
  },
  rust: {
    header: (random) =>
      `pub fn ${snakeCase(random, random.integer(2, 3))}(&mut self, ${snakeCase(random, 1)}: &${random.pick(['str', '[u8]', 'Path'])}) -> Result<${random.pick(['usize', '()', 'String'])}, Error> {`,
    statements: [
      (random, variable) => `let ${variable} = self.${snakeCase(random, 2)}(${snakeCase(random, 1)})?;`,
      (random, variable) =>
        `if ${variable}.len() > ${random.integer(1, 512)} {\n        return Err(Error::${capitalized(camelCase(random, 2))});\n    }`,
      (random, variable) =>
        `for (index, item) in ${variable}.iter().enumerate() {\n        total += item.${snakeCase(random, 1)} as usize * index;\n    }`,
      (random) => `/// ${comment(random)}`,
      (random, variable) =>
        `let mut ${variable}: Vec<String> = Vec::with_capacity(${random.integer(1, 256)});`,
      (random, variable) => `println!("{} {:?}", ${variable}, self.${snakeCase(random, 1)});`,
    ],
    indent: '    ',
    footer: '    Ok(Default::default())\n}',
    name: snakeCase,
  },
  java: {
    header: (random) =>
      `    public ${random.pick(['void', 'int', 'String', 'List<String>'])} ${camelCase(random, random.integer(2, 3))}(${random.pick(['String', 'int', 'Map<String, Object>'])} ${camelCase(random, 1)}) throws IOException {`,
    statements: [
      (random, variable) =>
        `final var ${variable} = this.${camelCase(random, 2)}.get(${random.integer(0, 99)});`,
      (random, variable) =>
        `if (${variable} == null || ${variable}.isEmpty()) {\n            throw new IllegalStateException("${comment(random)}");\n        }`,
      (random, variable) =>
        `for (String item : ${variable}) {\n            logger.info("{} {}", item, ${camelCase(random, 1)});\n        }`,
      (random) => `// ${comment(random)}`,
      (random, variable) =>
        `${variable}.stream().filter(Objects::nonNull).map(${capitalized(camelCase(random, 1))}::${camelCase(random, 2)}).collect(Collectors.toList());`,
    ],
    indent: '        ',
    footer: '    }',
    name: camelCase,
  },
  shell: {
    header: (random) => `${snakeCase(random, 2)}() {`,
    statements: [
      (random, variable) =>
        `local ${variable}="\${${random.integer(1, 3)}:-${random.pick(identifierParts)}}"`,
      (random, variable) =>
        `if [[ -z "$${variable}" ]]; then\n    echo "error: ${comment(random)}" >&2\n    return ${random.integer(1, 3)}\n  fi`,
      (random) =>
        `find . -name '*.${random.pick(['ts', 'py', 'json', 'log'])}' -mtime -${random.integer(1, 30)} | xargs grep -n "${random.pick(identifierParts)}" || true`,
      (random) => `# ${comment(random)}`,
      (random, variable) =>
        `curl -fsSL "https://api.example.com/v${random.integer(1, 3)}/${random.pick(identifierParts)}?limit=${random.integer(1, 100)}" | jq '.${camelCase(random, 1)}' > "$${variable}"`,
    ],
    indent: '  ',
    footer: '}',
    name: snakeCase,
  },
} satisfies Record<string, CodeLanguage>;

export type CodeLanguageName = keyof typeof codeLanguages;

/** One function of `language`, two to twelve statements at one to three levels of indentation. */
export function codeFunction(random: Random, language: CodeLanguage): string {
  const lines = [language.header(random)];
  for (let count = random.integer(2, 12); count > 0; count--) {
    const statement = random.pick(language.statements);
    const depth = random.integer(1, 3);
    lines.push(
      language.indent.repeat(depth) + statement(random, language.name(random, random.integer(1, 3))),
    );
  }
  if (language.footer !== '') lines.push(language.footer);
  return lines.join('\n');
}

function capitalized(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
