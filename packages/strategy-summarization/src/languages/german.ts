import type { SummaryLanguage } from './summary-language.js';

/** German. */
export const german: SummaryLanguage = {
  code: 'de',
  name: 'German',
  sections: [
    {
      heading: 'Ziele und Vorgaben',
      description:
        'Was der Nutzer will: Anforderungen, Vorlieben und Grenzen, die er genannt hat, in seinen Worten, wo es darauf ankommt.',
    },
    {
      heading: 'Fortschritt und aktueller Stand',
      description: 'Was erledigt ist und wo die Arbeit jetzt steht.',
    },
    {
      heading: 'Entscheidungen und Gründe',
      description: 'Getroffene Entscheidungen und ihre Gründe, auch verworfene Ansätze.',
    },
    {
      heading: 'Dateien und Code',
      description:
        'Gelesene, erstellte oder geänderte Dateien und was an jeder wichtig ist; genaue Namen, Signaturen und Werte.',
    },
    {
      heading: 'Fehler und Lösungen',
      description:
        'Aufgetretene Fehler, ihre Ursachen und wie sie behoben wurden (oder dass sie noch offen sind).',
    },
    { heading: 'Offene Arbeit', description: 'Was noch zu tun ist.' },
    {
      heading: 'Nächster Schritt',
      description:
        'Die unmittelbar nächste Aktion, so konkret, dass sie ohne die entfernten Nachrichten ausführbar ist.',
    },
  ],
  prompt: {
    purpose:
      'Du schreibst das Arbeitsgedächtnis eines Agenten, dessen ältere Nachrichten gleich aus seinem Kontext entfernt werden. Der Agent setzt die Aufgabe nur mit deiner Zusammenfassung, dem Artefaktprotokoll, der ursprünglichen Aufgabe und seinen neuesten Nachrichten fort; behalte also jede Tatsache, die er braucht, und nichts, was er nicht braucht.',
    previousSummary:
      'Bisherige Zusammenfassung (mit den neuen Nachrichten zusammenführen: behalten, was noch stimmt, aktualisieren, was sich geändert hat, streichen, was überholt ist):',
    conversation: 'Neue Nachrichten, die in die Zusammenfassung einfließen sollen:',
    artifactTrail:
      'Aus den Tool-Aufrufen aufgezeichnetes Artefaktprotokoll (Dateien und Befehle werden separat und wörtlich aufbewahrt; verweise darauf, kopiere nicht die ganze Liste):',
    instructions: 'Zusätzliche Anweisungen: {{instructions}}',
    format:
      'Schreibe die Zusammenfassung in Markdown mit genau diesen Abschnitten als Überschriften der Ebene 2, in dieser Reihenfolge:',
    closing:
      'Sei konkret: genaue Dateipfade, Befehle, Bezeichner, Zahlen und Fehlermeldungen. Schreibe „keine“ unter einen Abschnitt, zu dem es nichts zu sagen gibt. Antworte nur mit der Zusammenfassung. Schreibe die Zusammenfassung auf Deutsch, mit genau den deutschen Überschriften von oben. Lass Code, Pfade, Befehle und Fehlermeldungen unverändert.',
    noPreviousSummary: '(keine: dies ist die erste Zusammenfassung)',
    noArtifactTrail: '(nichts aufgezeichnet)',
    noInstructions: 'keine',
  },
  trail: {
    heading: '## Artefaktprotokoll',
    states: {
      created: 'Erstellt: ',
      edited: 'Bearbeitet: ',
      deleted: 'Gelöscht: ',
      read: 'Gelesen: ',
      named: 'Erwähnt: ',
    },
    commands: 'Befehle, älteste zuerst (erfolgreich, sofern nicht markiert):',
    errors: 'Fehler:',
    folded: 'Älteste Einzelheiten zusammengefasst: ',
    foldedUnits: {
      files: ['{n} Datei', '{n} Dateien'],
      commands: ['{n} Befehl', '{n} Befehle'],
      errors: ['{n} Fehler', '{n} Fehler'],
    },
  },
  digest: {
    unavailable:
      '(Das Modell für Zusammenfassungen war nicht verfügbar; diese Übersicht wurde ohne es erstellt.)',
    task: '## Ursprüngliche Aufgabe',
    latestRequest: '## Neueste Anfrage',
    previousSummary: '## Bisherige Zusammenfassung',
    assistantNotes: '## Letzte Notizen des Assistenten im entfernten Teil',
    none: 'keine',
    noText: '(kein Text)',
  },
};
