import type { SummaryLanguage } from './summary-language.js';

/** Chinese (Simplified). */
export const chinese: SummaryLanguage = {
  code: 'zh',
  name: 'Chinese (Simplified)',
  sections: [
    {
      heading: '目标与约束',
      description: '用户想要什么，提出的要求、偏好和限制；关键之处保留用户的原话。',
    },
    { heading: '进展与当前状态', description: '已经完成了什么，目前进行到哪一步。' },
    { heading: '决策及原因', description: '做出的选择及其理由，包括被否决的方案。' },
    {
      heading: '文件与代码',
      description: '读取、创建或修改过的文件，以及每个文件的要点；写明确切的名称、签名和取值。',
    },
    { heading: '错误与解决', description: '遇到的错误、原因以及解决方法（或说明仍未解决）。' },
    { heading: '待办工作', description: '还剩下哪些工作要做。' },
    { heading: '下一步', description: '紧接着要做的具体操作，具体到不看已删除的消息也能执行。' },
  ],
  prompt: {
    purpose:
      '你正在为一个智能体撰写工作记忆：它较早的消息即将从上下文中删除。之后它只能依靠你的摘要、工件记录、原始任务和最近的消息继续任务，因此请保留它需要的每一个事实，不需要的一概不写。',
    previousSummary:
      '之前的摘要（请与新消息合并：保留仍然成立的内容，更新已经变化的内容，删除已经过时的内容）：',
    conversation: '需要并入摘要的新消息：',
    artifactTrail: '根据工具调用记录的工件记录（文件和命令会原样单独保留；请引用它们，不要照抄整个列表）：',
    instructions: '附加说明：{{instructions}}',
    format: '请用 Markdown 撰写摘要，只使用以下各部分作为二级标题（##），并按此顺序：',
    closing:
      '请写得具体：给出确切的文件路径、命令、标识符、数字和错误信息。某部分没有内容时写“无”。只回答摘要本身。请用简体中文撰写摘要，标题原样使用上面的中文标题；代码、路径、命令和错误信息保持原文。',
    noPreviousSummary: '（无：这是第一份摘要）',
    noArtifactTrail: '（未记录）',
    noInstructions: '无',
  },
  trail: {
    heading: '## 工件记录',
    states: {
      created: '已创建：',
      edited: '已修改：',
      deleted: '已删除：',
      read: '已读取：',
      named: '已提及：',
    },
    commands: '命令，按时间先后（除非另有标记，均已成功）：',
    errors: '错误：',
    folded: '已折叠的最早记录：',
    foldedUnits: {
      files: ['{n} 个文件', '{n} 个文件'],
      commands: ['{n} 条命令', '{n} 条命令'],
      errors: ['{n} 个错误', '{n} 个错误'],
    },
  },
  digest: {
    unavailable: '（摘要模型不可用；以下内容是未经模型直接摘录的。）',
    task: '## 原始任务',
    latestRequest: '## 最新请求',
    previousSummary: '## 之前的摘要',
    assistantNotes: '## 已删除部分中助手的最后记录',
    none: '无',
    noText: '（无文本）',
  },
};
