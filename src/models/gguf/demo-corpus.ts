/**
 * The text the built-in demo model is fitted to: short, plain English sentences in the style of
 * children's stories and simple facts, written for this project (no third-party text).
 */
export const DEMO_CORPUS = `Once upon a time, there was a little girl named Lily. She liked to play in the park with her dog.
One day, Lily saw a big red ball under a tree. She ran to the ball and picked it up.
The dog barked and wagged its tail. Lily threw the ball and the dog ran after it.
The sun was warm and the sky was blue. The birds sang in the trees.
Tom was a small boy who lived in a little house near the sea. Every morning he went to the beach.
He liked to look at the boats on the water. Some boats were big and some boats were small.
One day, Tom found a shell on the sand. It was pink and white and very pretty.
He gave the shell to his mom. His mom smiled and said, "Thank you, Tom. It is beautiful."
The cat sat on the mat. The cat was happy because the mat was soft and warm.
The sun rises in the morning and sets in the evening. At night we can see the moon and the stars.
Water is wet. Ice is cold. Fire is hot. Snow is white and cold.
The grass is green. The sky is blue. The sun is yellow. Apples are red or green.
Birds can fly. Fish can swim. Dogs can run. Cats can climb trees.
A cow says moo. A dog says woof. A cat says meow. A duck says quack.
We eat breakfast in the morning, lunch at noon and dinner in the evening.
We sleep in a bed at night. We wake up in the morning when the sun comes up.
In the winter it is cold and it can snow. In the summer it is hot and we go to the beach.
In the spring the flowers grow. In the autumn the leaves fall from the trees.
Mia had a little garden. She planted seeds and gave them water every day.
Soon the seeds grew into tall green plants with big yellow flowers.
Mia was very proud of her garden. She showed the flowers to her friends.
Ben wanted to bake a cake for his mom. He used flour, eggs, milk and sugar.
He put the cake in the oven. When it was done, the cake smelled very good.
His mom said, "This is the best cake I ever had!" Ben was very happy.
The little bird could not fly. It was too small. Its mother fed it every day.
After many days, the little bird grew strong. One morning it spread its wings and flew up into the sky.
Sam and Anna went to the zoo. They saw a big lion, a tall giraffe and a funny monkey.
The monkey ate a banana and jumped from tree to tree. Sam and Anna laughed.
It started to rain. The children ran inside the house. They sat by the window and watched the rain.
When the rain stopped, they saw a rainbow in the sky. It had many colors.
The dog was tired after the long walk. It lay down on the floor and went to sleep.
The teacher read a story to the class. The children listened and smiled.
Two plus two is four. Three plus three is six. One plus one is two.
Monday comes after Sunday. Tuesday comes after Monday. There are seven days in a week.
The moon goes around the earth. The earth goes around the sun.
A year has twelve months. A day has twenty four hours. An hour has sixty minutes.
Lily and her friend Tim played with a kite. The wind was strong and the kite went high in the sky.
The kite was red and yellow. Tim held the string and ran across the field.
Then the string broke and the kite flew away. Lily was sad, but Tim said, "We can make a new kite."
They made a new kite with paper and sticks. The new kite was even better.
The old man had a small boat. Every day he went out on the sea to catch fish.
One day he caught a very big fish. He took it home and cooked it for dinner.
The girl put on her warm coat and her hat because it was cold outside.
She went outside and made a big snowman with a carrot for a nose.
The bear was hungry. It looked for honey in the forest. It found a tree with a lot of honey.
The frog jumped into the pond. The water was cool and the frog was happy.
The baby was crying. Her dad gave her milk and sang a song. Soon the baby fell asleep.
The family went to the park for a picnic. They ate sandwiches and apples and drank juice.
After lunch, the children played on the swings and the slide.
The train was long and fast. It went over the bridge and into the city.
The doctor helped the sick boy. She gave him medicine and told him to rest.
After a few days, the boy felt better. He went back to school and played with his friends.
`;
