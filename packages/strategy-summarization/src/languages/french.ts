import type { SummaryLanguage } from './summary-language.js';

/** French. */
export const french: SummaryLanguage = {
  code: 'fr',
  name: 'French',
  sections: [
    {
      heading: 'Objectifs et contraintes',
      description:
        "Ce que veut l'utilisateur : exigences, préférences et limites qu'il a indiquées, avec ses propres mots quand c'est important.",
    },
    {
      heading: 'Avancement et état actuel',
      description: 'Ce qui a été fait et où en sont les choses maintenant.',
    },
    {
      heading: 'Décisions et raisons',
      description: 'Les choix faits et leurs raisons, y compris les approches écartées.',
    },
    {
      heading: 'Fichiers et code',
      description:
        'Fichiers lus, créés ou modifiés, et ce qui compte pour chacun ; noms, signatures et valeurs exacts.',
    },
    {
      heading: 'Erreurs et résolutions',
      description:
        'Erreurs rencontrées, leurs causes et comment elles ont été résolues (ou qu’elles restent ouvertes).',
    },
    { heading: 'Travail restant', description: 'Ce qui reste à faire.' },
    {
      heading: 'Prochaine étape',
      description:
        "L'action immédiatement suivante, assez précise pour être réalisée sans les messages supprimés.",
    },
  ],
  prompt: {
    purpose:
      "Tu rédiges la mémoire de travail d'un agent dont les messages les plus anciens vont être retirés de son contexte. L'agent poursuivra la tâche uniquement à partir de ton résumé, du journal des artefacts, de la tâche d'origine et de ses messages les plus récents : garde tous les faits dont il a besoin, et rien d'autre.",
    previousSummary:
      'Résumé précédent (fusionne-le avec les nouveaux messages : garde ce qui est toujours vrai, mets à jour ce qui a changé, supprime ce qui est obsolète) :',
    conversation: 'Nouveaux messages à intégrer au résumé :',
    artifactTrail:
      "Journal des artefacts relevé à partir des appels d'outils (les fichiers et les commandes sont conservés à part, tels quels ; fais-y référence sans recopier toute la liste) :",
    instructions: 'Instructions supplémentaires : {{instructions}}',
    format:
      'Rédige le résumé en Markdown avec exactement ces sections, en titres de niveau 2, dans cet ordre :',
    closing:
      "Sois précis : chemins de fichiers, commandes, identifiants, nombres et messages d'erreur exacts. Écris « aucun » sous une section sans contenu. Réponds uniquement par le résumé. Rédige le résumé en français, avec exactement les titres français ci-dessus. Laisse le code, les chemins, les commandes et les messages d'erreur tels quels.",
    noPreviousSummary: "(aucun : c'est le premier résumé)",
    noArtifactTrail: '(rien d’enregistré)',
    noInstructions: 'aucune',
  },
  trail: {
    heading: '## Journal des artefacts',
    states: {
      created: 'Créés : ',
      edited: 'Modifiés : ',
      deleted: 'Supprimés : ',
      read: 'Lus : ',
      named: 'Mentionnés : ',
    },
    commands: 'Commandes, de la plus ancienne à la plus récente (réussies sauf indication) :',
    errors: 'Erreurs :',
    folded: 'Détails les plus anciens repliés : ',
    foldedUnits: {
      files: ['{n} fichier', '{n} fichiers'],
      commands: ['{n} commande', '{n} commandes'],
      errors: ['{n} erreur', '{n} erreurs'],
    },
  },
  digest: {
    unavailable: "(Le modèle de résumé n'était pas disponible ; ce résumé a été extrait sans lui.)",
    task: "## Tâche d'origine",
    latestRequest: '## Demande la plus récente',
    previousSummary: '## Résumé précédent',
    assistantNotes: "## Dernières notes de l'assistant dans la partie retirée",
    none: 'aucun',
    noText: '(pas de texte)',
  },
};
