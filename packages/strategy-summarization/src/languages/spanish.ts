import type { SummaryLanguage } from './summary-language.js';

/** Spanish. */
export const spanish: SummaryLanguage = {
  code: 'es',
  name: 'Spanish',
  sections: [
    {
      heading: 'Objetivos y restricciones',
      description:
        'Lo que quiere el usuario: requisitos, preferencias y límites que indicó, con sus propias palabras cuando importe.',
    },
    {
      heading: 'Progreso y estado actual',
      description: 'Lo que se ha hecho y en qué punto están las cosas ahora.',
    },
    {
      heading: 'Decisiones y motivos',
      description: 'Las decisiones tomadas y sus razones, incluidos los enfoques descartados.',
    },
    {
      heading: 'Archivos y código',
      description:
        'Archivos leídos, creados o modificados, y lo importante de cada uno; nombres, firmas y valores exactos.',
    },
    {
      heading: 'Errores y soluciones',
      description: 'Errores encontrados, sus causas y cómo se resolvieron (o que siguen abiertos).',
    },
    { heading: 'Trabajo pendiente', description: 'Lo que queda por hacer.' },
    {
      heading: 'Siguiente paso',
      description:
        'La acción inmediata siguiente, lo bastante concreta para llevarla a cabo sin los mensajes eliminados.',
    },
  ],
  prompt: {
    purpose:
      'Estás escribiendo la memoria de trabajo de un agente cuyos mensajes más antiguos están a punto de eliminarse de su contexto. El agente continuará la tarea solo con tu resumen, el registro de artefactos, la tarea original y sus mensajes más recientes, así que conserva todos los datos que necesita y nada que no necesite.',
    previousSummary:
      'Resumen anterior (combínalo con los mensajes nuevos: conserva lo que sigue siendo cierto, actualiza lo que cambió y elimina lo obsoleto):',
    conversation: 'Mensajes nuevos que incorporar al resumen:',
    artifactTrail:
      'Registro de artefactos tomado de las llamadas a herramientas (los archivos y comandos se guardan aparte y textualmente; haz referencia a ellos, no copies la lista entera):',
    instructions: 'Instrucciones adicionales: {{instructions}}',
    format:
      'Escribe el resumen en Markdown con exactamente estas secciones, como encabezados de nivel 2, en este orden:',
    closing:
      'Sé concreto: rutas de archivo, comandos, identificadores, números y mensajes de error exactos. Escribe "ninguno" en una sección sin nada que decir. Responde solo con el resumen. Escribe el resumen en español, con los encabezados en español exactamente como arriba. Deja el código, las rutas, los comandos y los mensajes de error tal como están.',
    noPreviousSummary: '(ninguno: este es el primer resumen)',
    noArtifactTrail: '(no se registró nada)',
    noInstructions: 'ninguna',
  },
  trail: {
    heading: '## Registro de artefactos',
    states: {
      created: 'Creados: ',
      edited: 'Editados: ',
      deleted: 'Eliminados: ',
      read: 'Leídos: ',
      named: 'Mencionados: ',
    },
    commands: 'Comandos, del más antiguo al más reciente (correctos salvo que se indique):',
    errors: 'Errores:',
    folded: 'Detalles más antiguos plegados: ',
    foldedUnits: {
      files: ['{n} archivo', '{n} archivos'],
      commands: ['{n} comando', '{n} comandos'],
      errors: ['{n} error', '{n} errores'],
    },
  },
  digest: {
    unavailable: '(El modelo de resumen no estaba disponible; este resumen se extrajo sin él.)',
    task: '## Tarea original',
    latestRequest: '## Solicitud más reciente',
    previousSummary: '## Resumen anterior',
    assistantNotes: '## Últimas notas del asistente en la parte eliminada',
    none: 'ninguno',
    noText: '(sin texto)',
  },
};
