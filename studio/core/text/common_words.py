"""Common words: the background a prompt's terms are weighed against to tell how specific they are.

A term found in a pack's catalog entry is evidence that the pack fits a prompt only as far as the term is
specific: "content", "calendar", "private" or "domain" occur in prompts about anything, while a brand, a
person's name or a trade's jargon ("cadence", "话术") points at one pack. Discovery evals weigh a common word
at a fraction of a specific one, and activate a pack only on at least one specific term.

What is listed: everyday English nouns, adjectives and verbs that are not stop words (the stop words are in
``stopwords``) and are among the few thousand most frequent in general English text: business, media, time,
people and place words that any request may contain. The Chinese list holds everyday two-character words (the
unit the ranking's bigrams see) of the same kind. Hand-written and short on purpose, like the stop words: a
generated frequency list would bring in words that are topics in packs ("warranty", "sourdough") at ranks a
threshold cannot tell apart, and a package for it (wordfreq) needs a Chinese segmenter and megabytes of data.
"""

from __future__ import annotations

_ENGLISH = """
account action activity ip address advice age agency agent agreement air amount analysis animal announcement
answer app application approach area argument article artist aspect attention audience author average award
background balance bank base basic basis beauty bill birth blog board body book boss boundary box brand break budget
building business buyer cake calendar call campaign capital car card care career case cash category cause
center centre chance change channel chapter character chart check child children choice church city claim class
client club coach code coffee colour color comment community company comparison competition computer concept
condition conference connection content context contract control conversation copy cost country couple course
court cover creator credit culture currency customer cycle daily damage data date day deal death decision
definition delivery demand department design detail development device difference dinner direction discount
discussion doctor document dog domain door dream drink driver economy edition education effect effort email
employee end energy engine engineer entry environment equipment error event evidence exam example experience
expert fact factor faq family fan farm feature fee feedback field figure file film finance fire firm fish flight
floor focus food force form format founder friend front fun function fund future game garden gift goal
government group growth guide guy hair half hand health heart history holiday home hospital hotel hour house
idea image impact income industry information input insurance interest internet interview investment item job
journey key kid kitchen knowledge lab land language law lead leader learning lesson letter level life light
limit line link list location loss love machine manager market marketing material matter meaning media meeting
member memory message method metric middle mind minute mission mode model moment money month morning mother
movie music name nature network news newsletter night note number offer office opinion option order
organization organisation output owner page pain paper parent park part partner party past path pay payment
people percent performance period person phone photo picture piece place plan planning platform player point
policy position positioning post power practice presentation press price pricing process product production
profile profit program programme project property purpose quality quarter question rate reader reason record region
relationship report research resource response result review risk road role room rule safety salary sale
sales sample school science score screen search season seat section security segment series service session
share shop side sign site size skill society software solution song source space speech staff stage standard
start state statement step stock store story strategy street structure student study style subject success
summary support system table talk target task tax teacher team technology term test text theme thing time
title tool topic total town trade traffic training travel trend trip type unit update user value version video
view visit voice water way web website week weekend weight word work worker world writer year
able active actual additional basic beautiful big busy cheap clean clear close common complete current daily
dark different digital direct early easy effective extra fair famous fast final financial free fresh friendly
full general global great happy hard healthy heavy huge important interesting key large late latest local
long major modern monthly national natural nice normal official online open original personal popular positive
powerful practical private professional public quick ready recent regular relevant rich safe serious short
simple single social special specific strong successful total true typical useful usual various weekly whole
wide young
add allow build buy choose collect compare complete connect contact continue cost create decide deliver develop
discuss edit grow improve include increase learn manage measure offer open order plan prepare produce promote
publish reach read receive reduce reply report review save sell send share sign start support teach test track
train update visit watch
"""
_CHINESE = """
个人 公司 产品 内容 客户 用户 市场 营销 品牌 视频 文章 介绍 知识 方法 故事 风格 经历 事实 数据 信息 问题
工作 时间 今天 明天 昨天 生活 朋友 老师 学生 学习 朋友 社群 社区 活动 价格 服务 销售 运营 管理 计划 日历
流量 私域 平台 渠道 团队 项目 技术 系统 网站 手机 邮件 新闻 经验 能力 成长 发展 行业 企业 业务 目标 策略
设计 开发 分析 报告 效果 结果 表达 沟通 文案 标题 主题 话题 素材 脚本 开场 简介 自我 创业 创始 始人 老板
员工 会议 直播 短视 平常 普通 一般 重要 简单 容易 专业 公开 最新 常见 什么 意思 含义 定义 打造 提升 写作
"""

COMMON_ENGLISH: frozenset[str] = frozenset(_ENGLISH.split())
"""Everyday English words (unfolded: callers fold them as they fold prompt terms)."""
COMMON_CHINESE: frozenset[str] = frozenset(_CHINESE.split())
"""Everyday Chinese two-character words, as the ranking's bigrams see them."""
