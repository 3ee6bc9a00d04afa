import type { SummaryLanguage } from './summary-language.js';

/** Portuguese. */
export const portuguese: SummaryLanguage = {
  code: 'pt',
  name: 'Portuguese',
  sections: [
    {
      heading: 'Objetivos e restrições',
      description:
        'O que o usuário quer: requisitos, preferências e limites que ele declarou, com as palavras dele quando isso importar.',
    },
    {
      heading: 'Progresso e estado atual',
      description: 'O que já foi feito e em que ponto as coisas estão agora.',
    },
    {
      heading: 'Decisões e motivos',
      description: 'Escolhas feitas e os motivos delas, incluindo abordagens descartadas.',
    },
    {
      heading: 'Arquivos e código',
      description:
        'Arquivos lidos, criados ou alterados e o que importa em cada um; nomes, assinaturas e valores exatos.',
    },
    {
      heading: 'Erros e soluções',
      description: 'Erros encontrados, suas causas e como foram resolvidos (ou que continuam em aberto).',
    },
    { heading: 'Trabalho pendente', description: 'O que falta fazer.' },
    {
      heading: 'Próximo passo',
      description:
        'A próxima ação imediata, específica o bastante para ser executada sem as mensagens removidas.',
    },
  ],
  prompt: {
    purpose:
      'Você está escrevendo a memória de trabalho de um agente cujas mensagens mais antigas estão prestes a ser removidas do contexto. O agente vai continuar a tarefa apenas com o seu resumo, o registro de artefatos, a tarefa original e as mensagens mais recentes, então mantenha todos os fatos de que ele precisa e nada além disso.',
    previousSummary:
      'Resumo anterior (combine-o com as novas mensagens: mantenha o que ainda é verdade, atualize o que mudou, remova o que ficou obsoleto):',
    conversation: 'Novas mensagens a incorporar ao resumo:',
    artifactTrail:
      'Registro de artefatos obtido das chamadas de ferramentas (arquivos e comandos são guardados à parte, literalmente; faça referência a eles, não copie a lista inteira):',
    instructions: 'Instruções adicionais: {{instructions}}',
    format: 'Escreva o resumo em Markdown com exatamente estas seções, como títulos de nível 2, nesta ordem:',
    closing:
      'Seja específico: caminhos de arquivo, comandos, identificadores, números e mensagens de erro exatos. Escreva "nenhum" em uma seção sem nada a dizer. Responda apenas com o resumo. Escreva o resumo em português, com exatamente os títulos em português acima. Mantenha código, caminhos, comandos e mensagens de erro como estão.',
    noPreviousSummary: '(nenhum: este é o primeiro resumo)',
    noArtifactTrail: '(nada registrado)',
    noInstructions: 'nenhuma',
  },
  trail: {
    heading: '## Registro de artefatos',
    states: {
      created: 'Criados: ',
      edited: 'Editados: ',
      deleted: 'Excluídos: ',
      read: 'Lidos: ',
      named: 'Mencionados: ',
    },
    commands: 'Comandos, do mais antigo ao mais recente (bem-sucedidos, salvo indicação):',
    errors: 'Erros:',
    folded: 'Detalhes mais antigos recolhidos: ',
    foldedUnits: {
      files: ['{n} arquivo', '{n} arquivos'],
      commands: ['{n} comando', '{n} comandos'],
      errors: ['{n} erro', '{n} erros'],
    },
  },
  digest: {
    unavailable: '(O modelo de resumo não estava disponível; este resumo foi extraído sem ele.)',
    task: '## Tarefa original',
    latestRequest: '## Pedido mais recente',
    previousSummary: '## Resumo anterior',
    assistantNotes: '## Últimas notas do assistente na parte removida',
    none: 'nenhum',
    noText: '(sem texto)',
  },
};
