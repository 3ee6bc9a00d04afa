import type { SummaryLanguage } from './summary-language.js';

/** Japanese. */
export const japanese: SummaryLanguage = {
  code: 'ja',
  name: 'Japanese',
  sections: [
    {
      heading: '目標と制約',
      description: 'ユーザーが求めていること、示された要件・好み・制限。重要な箇所はユーザー自身の言葉で。',
    },
    { heading: '進捗と現状', description: 'これまでに行ったことと、現在の状況。' },
    { heading: '決定事項と理由', description: '行った選択とその理由。採用しなかった方法も含める。' },
    {
      heading: 'ファイルとコード',
      description: '読んだ・作成した・変更したファイルと、それぞれの要点。正確な名前、シグネチャ、値。',
    },
    {
      heading: 'エラーと解決策',
      description: '発生したエラー、その原因、どう解決したか（または未解決であること）。',
    },
    { heading: '残りの作業', description: 'まだ残っている作業。' },
    {
      heading: '次のステップ',
      description: '次に行う具体的な作業。削除されたメッセージがなくても実行できるほど具体的に。',
    },
  ],
  prompt: {
    purpose:
      'あなたは、古いメッセージがまもなくコンテキストから削除されるエージェントのために作業メモを書いています。エージェントはこの要約、成果物の記録、元のタスク、直近のメッセージだけを頼りに作業を続けるので、必要な事実はすべて残し、不要なことは書かないでください。',
    previousSummary:
      '以前の要約（新しいメッセージと統合してください。まだ正しい内容は残し、変わった内容は更新し、古くなった内容は削除してください）：',
    conversation: '要約に取り込む新しいメッセージ：',
    artifactTrail:
      'ツール呼び出しから記録した成果物の記録（ファイルとコマンドは別途そのまま保持されます。参照するだけにして、一覧全体を書き写さないでください）：',
    instructions: '追加の指示：{{instructions}}',
    format: '要約は Markdown で、次の見出しだけをレベル 2 の見出し（##）として、この順番で書いてください：',
    closing:
      '具体的に書いてください。正確なファイルパス、コマンド、識別子、数値、エラーメッセージを含めます。書くことがない見出しの下には「なし」と書いてください。回答は要約だけにしてください。要約は日本語で書き、見出しも上記の日本語のまま使ってください。コード、パス、コマンド、エラーメッセージは原文のまま残してください。',
    noPreviousSummary: '（なし：これが最初の要約です）',
    noArtifactTrail: '（記録なし）',
    noInstructions: 'なし',
  },
  trail: {
    heading: '## 成果物の記録',
    states: {
      created: '作成：',
      edited: '編集：',
      deleted: '削除：',
      read: '読み取り：',
      named: '言及：',
    },
    commands: 'コマンド（古い順。印がなければ成功）：',
    errors: 'エラー：',
    folded: '折りたたんだ古い記録：',
    foldedUnits: {
      files: ['ファイル {n} 件', 'ファイル {n} 件'],
      commands: ['コマンド {n} 件', 'コマンド {n} 件'],
      errors: ['エラー {n} 件', 'エラー {n} 件'],
    },
  },
  digest: {
    unavailable: '（要約モデルを利用できなかったため、以下はモデルを使わずに抜き出した内容です。）',
    task: '## 元のタスク',
    latestRequest: '## 最新の依頼',
    previousSummary: '## 以前の要約',
    assistantNotes: '## 削除された部分でのアシスタントの最後のメモ',
    none: 'なし',
    noText: '（テキストなし）',
  },
};
