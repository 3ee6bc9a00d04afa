/**
 * The translation table of the language probe: every line of prose in the user turn of the shared transcript
 * `mini-swe-agent/django__django-16560` (the PR description and mini-swe-agent's task instructions), each
 * translated into Chinese and Spanish by hand, once. `translate-transcript.ts` applies it by script. Code
 * blocks, tags (`<pr_description>`), commands, identifiers and paths are not prose and stay as they are.
 */
export interface TranslatedLine {
  en: string;
  zh: string;
  es: string;
}

/** The languages the table holds besides English. */
export type TranslationLanguage = 'zh' | 'es';

export const taskTranslations: readonly TranslatedLine[] = [
  {
    en: 'Consider the following PR description:',
    zh: '请看下面的 PR 描述：',
    es: 'Considera la siguiente descripción del PR:',
  },
  {
    en: 'Allow to customize the code attribute of ValidationError raised by BaseConstraint.validate',
    zh: '允许自定义 BaseConstraint.validate 抛出的 ValidationError 的 code 属性',
    es: 'Permitir personalizar el atributo code del ValidationError que lanza BaseConstraint.validate',
  },
  { en: 'Description', zh: '描述', es: 'Descripción' },
  {
    en: 'It is currently possible to customize the violation_error_message of a ValidationError raised by a constraint but not the code.',
    zh: '目前可以自定义约束抛出的 ValidationError 的 violation_error_message，但不能自定义它的 code。',
    es: 'Ahora se puede personalizar el violation_error_message de un ValidationError que lanza una restricción, pero no su code.',
  },
  {
    en: "I'd like to add a new violation_error_message parameter to BaseConstraint to allow to easily add one.",
    zh: '我想给 BaseConstraint 添加一个新的 violation_error_message 参数，以便轻松地加上一个。',
    es: 'Me gustaría añadir a BaseConstraint un nuevo parámetro violation_error_message para poder añadir uno fácilmente.',
  },
  {
    en: 'Currently, to achieve the same result, you have to subclass the constraint to tweak validate to catch and reraise the ValidationError.',
    zh: '目前要达到同样的效果，必须继承这个约束并修改 validate，捕获 ValidationError 后再重新抛出。',
    es: 'Hoy, para lograr lo mismo, hay que heredar de la restricción y retocar validate para capturar y volver a lanzar el ValidationError.',
  },
  {
    en: 'Since the documentation recommends to Provide a descriptive error code to the constructor: when raising a ValidationError in \u200bhttps://docs.djangoproject.com/en/4.1/ref/forms/validation/#raising-validationerror , I think it would make sense to provide this possibility for errors raised by constraints.',
    zh: '既然文档在 \u200bhttps://docs.djangoproject.com/en/4.1/ref/forms/validation/#raising-validationerror 中建议抛出 ValidationError 时向构造函数提供一个有描述性的错误代码，我认为为约束抛出的错误提供这种可能是合理的。',
    es: 'Como la documentación recomienda dar al constructor un código de error descriptivo al lanzar un ValidationError en \u200bhttps://docs.djangoproject.com/en/4.1/ref/forms/validation/#raising-validationerror , creo que tendría sentido ofrecer esta posibilidad para los errores que lanzan las restricciones.',
  },
  {
    en: "If you think it would be a good idea, I'd be happy to work on a PR.",
    zh: '如果你觉得这是个好主意，我很乐意来做这个 PR。',
    es: 'Si te parece una buena idea, con gusto trabajaré en un PR.',
  },
  { en: '# Task Instructions', zh: '# 任务说明', es: '# Instrucciones de la tarea' },
  { en: '## Overview', zh: '## 概述', es: '## Resumen' },
  {
    en: "You're a software engineer interacting continuously with a computer by submitting commands.",
    zh: '你是一名软件工程师，通过提交命令与计算机持续交互。',
    es: 'Eres un ingeniero de software que trabaja sin pausa con una computadora enviando comandos.',
  },
  {
    en: "You'll be helping implement necessary changes to meet requirements in the PR description.",
    zh: '你将帮助实现必要的修改，以满足 PR 描述中的要求。',
    es: 'Vas a ayudar a implementar los cambios necesarios para cumplir los requisitos de la descripción del PR.',
  },
  {
    en: 'Your task is specifically to make changes to non-test files in the current directory in order to fix the issue described in the PR description in a way that is general and consistent with the codebase.',
    zh: '具体来说，你的任务是修改当前目录中的非测试文件，以一种通用且与代码库一致的方式修复 PR 描述中的问题。',
    es: 'Tu tarea es, en concreto, hacer cambios en los archivos que no son de pruebas del directorio actual para resolver el problema de la descripción del PR de una forma general y coherente con el código.',
  },
  {
    en: 'IMPORTANT: This is an interactive process where you will think and issue ONE command, see its result, then think and issue your next command.',
    zh: '重要：这是一个交互过程：你思考并发出一条命令，查看它的结果，然后再思考并发出下一条命令。',
    es: 'IMPORTANTE: es un proceso interactivo en el que piensas y das UN comando, ves su resultado y luego piensas y das el siguiente.',
  },
  { en: 'For each response:', zh: '每次回复：', es: 'En cada respuesta:' },
  {
    en: "1. Include a THOUGHT section explaining your reasoning and what you're trying to accomplish",
    zh: '1. 包含一个 THOUGHT 部分，说明你的推理以及你想完成什么',
    es: '1. Incluye una sección THOUGHT que explique tu razonamiento y lo que quieres lograr',
  },
  {
    en: '2. Provide exactly ONE bash command to execute',
    zh: '2. 提供恰好一条要执行的 bash 命令',
    es: '2. Da exactamente UN comando de bash para ejecutar',
  },
  { en: '## Important Boundaries', zh: '## 重要界限', es: '## Límites importantes' },
  {
    en: '- MODIFY: Regular source code files in /testbed (this is the working directory for all your subsequent commands)',
    zh: '- 可以修改：/testbed 中的普通源代码文件（这是你之后所有命令的工作目录）',
    es: '- MODIFICA: los archivos de código fuente normales de /testbed (es el directorio de trabajo de todos tus comandos siguientes)',
  },
  {
    en: '- DO NOT MODIFY: Tests, configuration files (pyproject.toml, setup.cfg, etc.)',
    zh: '- 不要修改：测试和配置文件（pyproject.toml、setup.cfg 等）',
    es: '- NO MODIFIQUES: las pruebas ni los archivos de configuración (pyproject.toml, setup.cfg, etc.)',
  },
  { en: '## Recommended Workflow', zh: '## 推荐的工作流程', es: '## Flujo de trabajo recomendado' },
  {
    en: '1. Analyze the codebase by finding and reading relevant files',
    zh: '1. 查找并阅读相关文件，分析代码库',
    es: '1. Analiza el código buscando y leyendo los archivos que importan',
  },
  {
    en: '2. Create a script to reproduce the issue',
    zh: '2. 编写一个重现该问题的脚本',
    es: '2. Crea un script que reproduzca el problema',
  },
  {
    en: '3. Edit the source code to resolve the issue',
    zh: '3. 修改源代码以解决问题',
    es: '3. Edita el código fuente para resolver el problema',
  },
  {
    en: '4. Verify your fix works by running your script again',
    zh: '4. 再次运行脚本，确认修复有效',
    es: '4. Comprueba que la corrección funciona ejecutando de nuevo el script',
  },
  {
    en: '5. Test edge cases to ensure your fix is robust',
    zh: '5. 测试边界情况，确保修复稳健',
    es: '5. Prueba los casos límite para asegurarte de que la corrección es sólida',
  },
  { en: '## Command Execution Rules', zh: '## 命令执行规则', es: '## Reglas de ejecución de comandos' },
  {
    en: 'You are operating in an environment where',
    zh: '你所在的环境是这样的：',
    es: 'Trabajas en un entorno en el que',
  },
  { en: '1. You write a single command', zh: '1. 你写一条命令', es: '1. Escribes un solo comando' },
  {
    en: '2. The system executes that command in a subshell',
    zh: '2. 系统在子 shell 中执行这条命令',
    es: '2. El sistema ejecuta ese comando en una subshell',
  },
  { en: '3. You see the result', zh: '3. 你看到结果', es: '3. Ves el resultado' },
  { en: '4. You write your next command', zh: '4. 你写下一条命令', es: '4. Escribes tu siguiente comando' },
  { en: 'Each response should include:', zh: '每次回复都应包含：', es: 'Cada respuesta debe incluir:' },
  {
    en: '1. A **THOUGHT** section where you explain your reasoning and plan',
    zh: '1. 一个 **THOUGHT** 部分，说明你的推理和计划',
    es: '1. Una sección **THOUGHT** en la que explicas tu razonamiento y tu plan',
  },
  {
    en: '2. A single bash code block with your command',
    zh: '2. 一个包含你的命令的 bash 代码块',
    es: '2. Un solo bloque de código bash con tu comando',
  },
  {
    en: 'Format your responses like this:',
    zh: '请按如下格式回复：',
    es: 'Da a tus respuestas este formato:',
  },
  {
    en: 'THOUGHT: Here I explain my reasoning process, analysis of the current situation,',
    zh: 'THOUGHT: 在这里我说明我的推理过程、对当前情况的分析，',
    es: 'THOUGHT: Aquí explico mi razonamiento, el análisis de la situación actual',
  },
  {
    en: "and what I'm trying to accomplish with the command below.",
    zh: '以及我想用下面的命令完成什么。',
    es: 'y lo que quiero lograr con el comando de abajo.',
  },
  {
    en: 'Commands must be specified in a single bash code block:',
    zh: '命令必须写在一个 bash 代码块中：',
    es: 'Los comandos deben ir en un solo bloque de código bash:',
  },
  { en: '**CRITICAL REQUIREMENTS:**', zh: '**关键要求：**', es: '**REQUISITOS CRÍTICOS:**' },
  {
    en: '- Your response SHOULD include a THOUGHT section explaining your reasoning',
    zh: '- 你的回复应当包含一个说明推理的 THOUGHT 部分',
    es: '- Tu respuesta DEBERÍA incluir una sección THOUGHT que explique tu razonamiento',
  },
  {
    en: '- Your response MUST include EXACTLY ONE bash code block',
    zh: '- 你的回复必须包含恰好一个 bash 代码块',
    es: '- Tu respuesta DEBE incluir EXACTAMENTE UN bloque de código bash',
  },
  {
    en: '- This bash block MUST contain EXACTLY ONE command (or a set of commands connected with && or ||)',
    zh: '- 这个 bash 代码块必须只包含一条命令（或用 && 或 || 连接的一组命令）',
    es: '- Ese bloque bash DEBE contener EXACTAMENTE UN comando (o un grupo de comandos unidos con && o ||)',
  },
  {
    en: '- If you include zero or multiple bash blocks, or no command at all, YOUR RESPONSE WILL FAIL',
    zh: '- 如果没有 bash 代码块、有多个代码块或根本没有命令，你的回复将会失败',
    es: '- Si no incluyes ningún bloque bash, incluyes varios o no das ningún comando, TU RESPUESTA FALLARÁ',
  },
  {
    en: '- Do NOT try to run multiple independent commands in separate blocks in one response',
    zh: '- 不要在一次回复中用多个代码块运行多条独立的命令',
    es: '- NO intentes ejecutar varios comandos independientes en bloques separados en una misma respuesta',
  },
  {
    en: '- Directory or environment variable changes are not persistent. Every action is executed in a new subshell.',
    zh: '- 对目录或环境变量的修改不会保留。每个操作都在新的子 shell 中执行。',
    es: '- Los cambios de directorio o de variables de entorno no se conservan. Cada acción se ejecuta en una subshell nueva.',
  },
  {
    en: '- However, you can prefix any action with `MY_ENV_VAR=MY_VALUE cd /path/to/working/dir && ...` or write/load environment variables from files',
    zh: '- 不过，你可以在任何操作前加上 `MY_ENV_VAR=MY_VALUE cd /path/to/working/dir && ...`，或者把环境变量写入文件再从文件读取',
    es: '- Aun así, puedes anteponer a cualquier acción `MY_ENV_VAR=MY_VALUE cd /path/to/working/dir && ...` o guardar y cargar las variables de entorno en archivos',
  },
  {
    en: 'Example of a CORRECT response:',
    zh: '正确回复的示例：',
    es: 'Ejemplo de una respuesta CORRECTA:',
  },
  {
    en: 'THOUGHT: I need to understand the structure of the repository first. Let me check what files are in the current directory to get a better understanding of the codebase.',
    zh: 'THOUGHT: 我需要先了解仓库的结构。我先看看当前目录里有哪些文件，以便更好地理解代码库。',
    es: 'THOUGHT: Primero necesito entender la estructura del repositorio. Voy a ver qué archivos hay en el directorio actual para entender mejor el código.',
  },
  {
    en: 'Example of an INCORRECT response:',
    zh: '错误回复的示例：',
    es: 'Ejemplo de una respuesta INCORRECTA:',
  },
  {
    en: "THOUGHT: I need to examine the codebase and then look at a specific file. I'll run multiple commands to do this.",
    zh: 'THOUGHT: 我需要检查代码库，然后查看一个具体的文件。我会运行多条命令来做到这一点。',
    es: 'THOUGHT: Necesito examinar el código y luego mirar un archivo concreto. Para eso voy a ejecutar varios comandos.',
  },
  { en: "Now I'll read the file:", zh: '现在我来读这个文件：', es: 'Ahora voy a leer el archivo:' },
  {
    en: 'If you need to run multiple commands, either:',
    zh: '如果你需要运行多条命令，可以：',
    es: 'Si necesitas ejecutar varios comandos, puedes:',
  },
  {
    en: '1. Combine them in one block using && or ||',
    zh: '1. 用 && 或 || 把它们合并到一个代码块里',
    es: '1. Unirlos en un solo bloque con && o ||',
  },
  {
    en: '2. Wait for the first command to complete, see its output, then issue the next command in your following response.',
    zh: '2. 等第一条命令执行完，查看输出，再在下一次回复中发出下一条命令。',
    es: '2. Esperar a que termine el primer comando, ver su salida y dar el siguiente comando en tu próxima respuesta.',
  },
  { en: '## Environment Details', zh: '## 环境细节', es: '## Detalles del entorno' },
  {
    en: '- You have a full Linux shell environment',
    zh: '- 你拥有一个完整的 Linux shell 环境',
    es: '- Tienes un entorno de shell de Linux completo',
  },
  {
    en: '- Always use non-interactive flags (-y, -f) for commands',
    zh: '- 命令始终使用非交互式参数（-y、-f）',
    es: '- Usa siempre opciones no interactivas (-y, -f) en los comandos',
  },
  {
    en: '- Avoid interactive tools like vi, nano, or any that require user input',
    zh: '- 避免使用 vi、nano 等交互式工具或任何需要用户输入的工具',
    es: '- Evita las herramientas interactivas como vi, nano o cualquiera que pida datos al usuario',
  },
  {
    en: "- If a command isn't available, you can install it",
    zh: '- 如果某个命令不可用，你可以安装它',
    es: '- Si un comando no está disponible, puedes instalarlo',
  },
  { en: '## Useful Command Examples', zh: '## 常用命令示例', es: '## Ejemplos de comandos útiles' },
  { en: '### Create a new file:', zh: '### 创建新文件：', es: '### Crear un archivo nuevo:' },
  { en: '### Edit files with sed:', zh: '### 用 sed 编辑文件：', es: '### Editar archivos con sed:' },
  { en: '### View file content:', zh: '### 查看文件内容：', es: '### Ver el contenido de un archivo:' },
  {
    en: '### Any other command you want to run',
    zh: '### 你想运行的任何其他命令',
    es: '### Cualquier otro comando que quieras ejecutar',
  },
  { en: '## Submission', zh: '## 提交', es: '## Entrega' },
  {
    en: "When you've completed your work (reading, editing, testing), and cannot make further progress",
    zh: '当你完成了工作（阅读、编辑、测试）并且无法再取得进展时，',
    es: 'Cuando hayas terminado tu trabajo (leer, editar, probar) y ya no puedas avanzar más,',
  },
  {
    en: 'issue exactly the following command:',
    zh: '请原样发出下面这条命令：',
    es: 'da exactamente el siguiente comando:',
  },
  {
    en: 'This command will submit your work.',
    zh: '这条命令会提交你的工作。',
    es: 'Este comando entregará tu trabajo.',
  },
  {
    en: 'You cannot continue working (reading, editing, testing) in any way on this task after submitting.',
    zh: '提交之后，你将无法以任何方式继续这项任务（阅读、编辑、测试）。',
    es: 'Después de entregar ya no podrás seguir trabajando en esta tarea de ninguna forma (leer, editar, probar).',
  },
];
