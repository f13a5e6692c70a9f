// 控件自己的文字（www/controls.js、acting.js、playback.js、notices.js、share.js、compare.js、
// kafka-check.js）：提示条及其按钮、断点、速度、在过去操作前的询问、生产请求表单的检查、分享菜单的输出、
// 打不开的会话文件和链接、假设情形对比、Kafka 对照检查的标记、场景的结尾。模型（Rust）给出的文字，
// 以及场景和检查记录里的文字保持原样：这里只是它们外面的句子。
export default {
  // 提示条（notices.js）
  'notice.undo': '撤销',
  'notice.download': '下载会话',
  'notice.dismiss': '关闭',

  // 播放头（playback.js）：命中断点、速度的说法。
  'playback.breakpoint': '断点：{what}（于 {at} ms）。',
  'playback.speed.auto': '自动 · {rate}',
  'playback.speed.paused': '已暂停',
  'playback.speed.fixed.paused': '{rate} · 已暂停',
  'playback.rate.holding': '停留中',
  'playback.rate.times': '{rate}×',
  'playback.rate.perMs': '每 {wall} ms 推进 1 ms',
  'playback.rate.perSecond': '每 {wall} 秒推进 1 ms',

  // 在过去的时刻操作（acting.js）
  'fork.dialog': '要开始一个新的未来吗？',
  'fork.question': '你现在位于 {at} ms，处在这次运行的过去。在这里操作，会从这一刻起开始一个新的未来，并丢弃已经计算到 {frontier} ms 的运行。“撤销”可以把它恢复。',
  'fork.question.actions': {
    other: '你现在位于 {at} ms，处在这次运行的过去。在这里操作，会从这一刻起开始一个新的未来，并丢弃你在这之后做的 {count} 个操作，以及已经计算到 {frontier} ms 的运行。“撤销”可以把它们恢复。',
  },
  'fork.what': '{what}？',
  'fork.act': '在这里操作',
  'fork.cancel': '取消',
  'fork.dontAsk': '不再询问',

  // 生产请求表单的检查（acting.js）
  'produce.problem.partitions': '分区：请填写分区编号，例如“0”或“0, 1”。',
  'produce.problem.partitionTwice': '分区：每个分区只能填写一次（一个生产请求里每个分区只出现一次）。',
  'produce.problem.records': '消息条数：请填写 1 到 {max} 之间的整数。',
  'produce.problem.timeout': '超时：请填写 0 到 {max} 之间的整数毫秒数（留空则使用 request.timeout.ms）。',
  'produce.longerThanOwn': '这个请求让 broker 最多等 {timeout} ms，长于生产者自己的 request.timeout.ms（{own} ms）：若到那时还没有答复，生产者会先放弃，broker 的答复无人读取。',
  'produce.problem.burst': '连发：请填写 1 到 {max} 之间的整数。',

  // 断点（controls.js）
  'bp.problem.stall': 'HW 停滞时长：请填写 1 到 {max} 之间的整数毫秒数；在此之前，这个断点不生效。',
  'bp.problem.stallName': 'HW 停滞时长',

  // 场景选择器（controls.js）；场景的标题保持原样。
  'scenarios.live': '实时会话（由你操作）',
  'scenarios.spec': '规范中的场景',
  'scenarios.more': '更多场景',
  'scenarios.whatIfs': '假设情形：两次运行并排对比',
  'scenarios.opened': '{what}（来自{from}）',
  'scenarios.openedAt': '{from} · {what}',
  'scenarios.withYourActions': '{scenario}，含你的操作',
  'scenarios.opened.live': '实时会话',
  'scenarios.opened.unnamed': '一个场景',
  'scenarios.opened.file': '文件',

  // 分享菜单的输出（controls.js）
  'share.out.copied': '已复制（{size} 个字符）。',
  'share.out.inAddressBar': '链接已在地址栏中（{size} 个字符）。',
  'share.out.here': '浏览器不允许复制；链接（{size} 个字符）：',
  'share.out.open': '在完整的 playground 中打开',
  'share.out.saved': '已保存 {file}（{size} 个字符）：{at} ms 时的各个视图。',
  'share.out.pictureTitle': 'Purgatory Playground · {what} · {at} ms',
  'share.out.live': '实时会话',
  'share.out.session': '会话',

  // 会话文件（share.js、controls.js）
  'file.tooBig': '{file} 有 {size} 字节；会话文件最大为 64 MB',
  'file.notSession': '{file} 不是会话文件（会话文件是一个 JSON 格式的场景）',
  'file.refused': '{file}：{error}',
  'file.opened': '已打开 {file}。',
  'file.notOpened': '无法打开这个文件，当前会话没有任何改动：{error}',

  // 无法读取的会话链接（share.js）：放进“这个链接无法打开（…）”里的说明。
  'fragment.tooLong': '链接太长，不可能是会话链接',
  'fragment.badCharacters': '链接已损坏：其中有会话链接里不会出现的字符',
  'fragment.badBase64': '链接已损坏：其中的会话编码无效',
  'fragment.tooBig': '链接里的会话超过了会话的上限（{max} MB）',
  'fragment.badDeflate': '链接已损坏：其中的会话无法解压（复制时是不是被截断了？）',
  'fragment.badStep': '链接中的导览步骤 {param} 不是步骤编号（1、2、…）',
  'fragment.badInstant': '链接中的时刻 {param} 不是从 0 起的整数毫秒数',
  'fragment.sessionInstant': '会话链接在保存时的时刻打开，所以不读取 {param}',
  'fragment.lateInstant': '链接中的时刻 {param} 超过了一周（{max} ms），即最长的运行',

  // 正在计算的 trace 指纹（controls.js）
  'trace.computing': '计算中…',

  // 场景的结尾（controls.js）
  'end.reached': '场景已运行到结尾（{at} ms）。',
  'end.restart': '重新开始',
  'end.live': '作为实时会话继续',

  // 对比表单列表中的操作（controls.js）
  'action.produce': {
    other: '发送 {count} 个 acks={acks} 的请求',
  },
  'action.pause': '暂停 broker {broker} 的拉取',
  'action.resume': '恢复 broker {broker} 的拉取',
  'action.crash': '让 broker {broker} 崩溃',
  'action.restart': '重启 broker {broker}',
  'action.elect': '选举 broker {broker} 为 {partition} 的 leader',

  // 假设情形对比（compare.js、controls.js）。带标记的消息（whatIf.divergence 中的 {at}、
  // whatIf.lost 中的 {lost}）把每个 {name} 放在中文语序需要的位置。
  'whatIf.noActions': '这次运行还没有可以修改的操作。',
  'whatIf.refused': '{change}：{error}',
  'whatIf.noRoom': '这个 playground 没有放第二次运行的位置',
  'whatIf.trapped': '模型在对比时停止了',
  'whatIf.run': '假设情形的那次运行',
  'whatIf.notOpened': '第二次运行无法打开：{error}',
  'whatIf.failed': '无法进行“{change}”的对比：{error}',
  'whatIf.ended': '“{change}”的对比已结束：{error}',
  'whatIf.breakpoint': '在运行 B 中，{what}',
  'whatIf.heading': '假设：{change}',
  'whatIf.a': 'A · 原样',
  'whatIf.allSame': '每个请求得到的应答都相同',
  'whatIf.differing': {
    other: '{count} 个请求中有 {differing} 个得到了不同的应答',
  },
  'whatIf.stop': '停止对比',
  'whatIf.live': '实时会话：两次运行已对比到 {at} ms。每次操作后都会重新对比。',
  'whatIf.again': '对比到现在',
  'whatIf.noDivergence': '两次运行逐个事件完全相同：这个改动在这里没有造成任何差别。',
  'whatIf.divergence': '两次运行在 {at} 分道扬镳。{inA}；{inB}。',
  'whatIf.inA': '在 A（原样）中，{what}',
  'whatIf.inB': '在 B（{change}）中，{what}',
  'whatIf.runEnded': '之后什么也不会发生（它的运行已经结束）',
  'whatIf.nothingNew': '此刻没有发生另一次运行所没有的事',
  'whatIf.goTo': '跳到 {at} ms',
  'whatIf.change.acks': '所有请求都用 acks={acks}',
  'whatIf.change.actionAcks': '“{action}”改用 acks={acks}',
  'whatIf.change.timeout': '所有请求都用 timeout_ms {ms}',
  'whatIf.change.actionTimeout': '“{action}”改用 timeout_ms {ms}',
  'whatIf.change.at': '“{action}”改在 {at} ms（原为 {was} ms）',
  'whatIf.change.removed': '去掉“{action}”',
  'whatIf.of.pause': 'broker {broker} 的暂停',
  'whatIf.of.resume': 'broker {broker} 的恢复',
  'whatIf.of.crash': 'broker {broker} 的崩溃',
  'whatIf.of.restart': 'broker {broker} 的重启',
  'whatIf.of.elect': '选举 broker {broker} 为 {partition} 的 leader',
  'outcome.noAnswer': '无响应',
  'outcome.closed': '{errors}，连接被关闭',
  'outcome.gaveUp': '{errors}，生产者自己超时',
  'whatIf.request': '请求',
  'whatIf.verdict': '相同还是不同',
  'whatIf.follow': '在两次运行中跟踪 {id}',
  'whatIf.absent': '不在这次运行中',
  'whatIf.answer.none': '{outcome}，无响应（acks=0）',
  'whatIf.answer.atOnly': '{outcome}（{at} ms）',
  'whatIf.answer.at': '{outcome}（{at} ms）· offset {offsets}',
  'whatIf.answer.gaveUp': '{outcome}（{at} ms）',
  'whatIf.lost': '{answer} · {at} ms 时丢失（{lost}）',
  'whatIf.differs': '≠ 不同',
  'whatIf.same': '相同',

  // Kafka 对照检查的标记（kafka-check.js）；检查记录里的差异和原因保持原样。
  'kafkaCheck.kafka': 'Apache Kafka {version}',
  'kafkaCheck.runs': { other: '{count} 次运行，{date}' },
  'kafkaCheck.runsBoth': 'A 与 B 共 {count} 次运行，{date}',
  'kafkaCheck.explained': {
    other: '；有 {count} 处差异可归因于模型的简化或测试驱动的局限（{list}）',
  },
  'kafkaCheck.allExplained': { other: '✓ 已与 {kafka} 对照检查：结果相同，只有 {count} 处差异，可归因于模型的简化或测试驱动的局限（{list}）（{runs}）' },
  'kafkaCheck.agree': '✓ 已与 {kafka} 对照检查：应答相同{explained}（{runs}）',
  'kafkaCheck.noise': '✓ 已与 {kafka} 对照检查：凡是 Kafka 自己的多次运行结果一致之处，应答都相同{explained}（{runs}）',
  'kafkaCheck.disagree': '✗ {kafka} 给出了不同的应答：{differences}（{runs}）',
  'kafkaCheck.notDriven': '未与 {kafka} 对照检查：这个场景讲的是一场竞态，真实集群无法被精确控制到那一步（{runs}）',
  'kafkaCheck.title': '与 {kafka} 比较了 {fields} 个字段：错误码、offset、ISR、HW 和 LEO 须完全一致，应答时间须落在一个时间窗口内（{doc}）',
  'kafkaCheck.reason.x07-immediate-fetch-answer-carries-the-earlier-hw': "它的要点取决于毫秒级的时序：1,000 和 1,001 ms 写入消息，1,002 ms 应答 follower 2 的 fetch，1,003 ms 暂停并选举。真实 follower 的 fetch 无法安排在某个指定的毫秒（它最多被挂起 replica.fetch.wait.max.ms，由 fetcher 线程调度），所以在 Kafka 上 broker 2 在暂停之前还没有拉取到这些消息（LEO 0），而且在一次运行中，相隔 1 ms 的两个生产请求互换了 offset。它所展示的模型规则（立即应答的 fetch 携带的是 fetch 之前的 HW）是 Kafka 的代码路径，此处没有对照检查。",
  'kafkaCheck.reason.x08-actions-come-first-at-t0-even-with-zero-fetch-wait': "它的整个运行只有 6 ms：约定规定在 t = 0 内动作先于 fetch，且 replica.fetch.wait.max.ms 为 0。在真实集群上，follower 的 fetch 并不按场景的毫秒运行，生产请求之后 6 ms 时 HW 还没有移动（0，而模型在 6 ms 时是 10）：这是约定的时序规则，无法在真实集群上驱动。",
  'kafkaCheck.reason.x11-same-ms-fencing-in-broker-id-order': "它的要点是一个平局：两个 broker 的最后一次心跳在同一毫秒（44,000）发出，于是按 broker id 的顺序在同一毫秒被隔离。在真实集群上，每个 broker 的心跳都有自己的相位（见 scenario-format.md），所以两个会话在不同时刻到期：运行结束时 leader 还没有被隔离（leader 0，ISR {0,1} 或 {0}，从已死的 leader 读不到 HW），而模型已把两者都隔离了。隔离的顺序本身，以及其 leader 崩溃之后才提交的 AlterPartition，此处都没有对照检查。",
};
